import type { brokerLocations, brokers } from "../../../db/schema.ts";
import { foldText } from "../../domain/text.ts";
import type { BrokerRecord, OfficeRecord } from "../../schemas/directoryRecords.ts";

export type StoredBroker = typeof brokers.$inferSelect;
export type StoredOffice = typeof brokerLocations.$inferSelect;

/** A broker's own fields as an import sets them: the record's, in the stored row's names. */
export interface BrokerFields {
  externalId: string | null;
  slug: string;
  name: string;
  description: string;
  province: string;
  city: string;
  phone: string | null;
  email: string | null;
  website: string | null;
  licenseNumber: string | null;
  foundingYear: number | null;
  teamSize: string;
  isVerified: boolean;
  insuranceLines: string[];
  specialties: string[];
  languages: string[];
  published: boolean;
}

/** An office as an import sets it (and as the audit trail and the comparison see it). */
export type OfficeFields = Pick<StoredOffice, "address" | "city" | "province" | "postalCode" | "phone" | "latitude" | "longitude" | "isPrimary">;

const BROKER_KEYS = [
  "externalId", "slug", "name", "description", "province", "city", "phone", "email", "website", "licenseNumber",
  "foundingYear", "teamSize", "isVerified", "insuranceLines", "specialties", "languages", "published",
] as const satisfies readonly (keyof BrokerFields)[];

/** The broker's fields from a record; `slug` is the one to store (an existing broker may keep its own). */
export function brokerFieldsOf(record: BrokerRecord, slug: string): BrokerFields {
  const primary = record.locations.find((office) => office.isPrimary) ?? record.locations[0]!;
  return {
    externalId: record.externalId,
    slug,
    name: record.name,
    description: record.description,
    province: primary.province,
    city: primary.city,
    phone: record.phone,
    email: record.email,
    website: record.website,
    licenseNumber: record.licenseNumber,
    foundingYear: record.foundingYear,
    teamSize: record.teamSize,
    isVerified: record.isVerified,
    insuranceLines: record.insuranceLines,
    specialties: record.specialties,
    languages: record.languages,
    published: record.published,
  };
}

export function officeFieldsOf(office: OfficeRecord): OfficeFields {
  return {
    address: office.address,
    city: office.city,
    province: office.province,
    postalCode: office.postalCode,
    phone: office.phone,
    latitude: office.latitude,
    longitude: office.longitude,
    isPrimary: office.isPrimary,
  };
}

export function storedOfficeFields(office: StoredOffice): OfficeFields {
  const { address, city, province, postalCode, phone, latitude, longitude, isPrimary } = office;
  return { address, city, province, postalCode, phone, latitude, longitude, isPrimary };
}

/** The rows an import inserts for a new broker (ids given by the caller: max + 1 under the write lock). */
export function newBrokerRow(id: number, fields: BrokerFields, now: number): typeof brokers.$inferInsert {
  return { id, ...fields, sortName: foldText(fields.name), createdAt: now, updatedAt: now };
}

export function officeRow(id: number, brokerId: number, office: OfficeFields): typeof brokerLocations.$inferInsert {
  return { id, brokerId, ...office, cityKey: foldText(office.city) };
}

const same = (a: unknown, b: unknown) => a === b || (Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => item === b[i]));

/**
 * What an import would change on a stored broker: the fields that differ, as they were and as
 * they become (the audit trail's before and after), `locations` whole when any office differs.
 * Empty: the broker is unchanged, and nothing is written (no trigger fires, no version moves).
 */
export function brokerChanges(
  stored: StoredBroker,
  storedOffices: readonly OfficeFields[],
  fields: BrokerFields,
  offices: readonly OfficeFields[],
): { before: Record<string, unknown>; after: Record<string, unknown>; officesChanged: boolean } {
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const key of BROKER_KEYS) {
    if (!same(stored[key], fields[key])) {
      before[key] = stored[key];
      after[key] = fields[key];
    }
  }
  const officesChanged =
    storedOffices.length !== offices.length ||
    storedOffices.some((office, i) => (Object.keys(office) as (keyof OfficeFields)[]).some((key) => office[key] !== offices[i]![key]));
  if (officesChanged) {
    before.locations = storedOffices;
    after.locations = offices;
  }
  return { before, after, officesChanged };
}

/** The whole broker as the audit trail records a creation. */
export function createdFields(fields: BrokerFields, offices: readonly OfficeFields[]): Record<string, unknown> {
  return { ...fields, locations: offices };
}
