import type { DirectoryBroker } from "../../src/router/directory/directoryViews.ts";

/** An office as the form edits it: a stored one keeps its id, a new one has none. */
export type OfficeDraft = Omit<DirectoryBroker["locations"][number], "id"> & { id?: string };

/** What the form holds, in PATCH's field names (values as the API takes them). */
export type BrokerFields = Record<string, unknown>;

const OPTIONAL_TEXT = ["slug", "externalId", "licenseNumber", "email", "phone", "website"] as const;
const LIST = (text: string) =>
  text
    .split(";")
    .map((item) => item.trim())
    .filter((item) => item !== "");

/**
 * The form's fields as PATCH takes them. An empty optional field is null (cleared); a year that
 * is not digits is sent as typed, for the server to refuse with its own message. An office's
 * coordinates go only when given: without them the server takes the postal code's area.
 */
export function readBrokerForm(form: HTMLFormElement, offices: readonly OfficeDraft[]): { fields: BrokerFields; reason: string } {
  const data = new FormData(form);
  const text = (name: string) => String(data.get(name) ?? "").trim();
  const fields: BrokerFields = { name: text("name"), description: text("description"), teamSize: text("teamSize"), isVerified: data.get("isVerified") !== null };
  for (const name of OPTIONAL_TEXT) fields[name] = text(name) === "" ? null : text(name);
  const year = text("foundingYear");
  fields.foundingYear = year === "" ? null : /^\d+$/.test(year) ? Number(year) : year;
  fields.insuranceLines = data.getAll("insuranceLines").map(String);
  fields.specialties = LIST(text("specialties"));
  fields.languages = LIST(text("languages"));
  fields.locations = offices.map((o) => {
    const office: Record<string, unknown> = { address: o.address.trim(), city: o.city.trim(), province: o.province, postalCode: o.postalCode.trim(), isPrimary: o.isPrimary };
    if (o.phone) office.phone = o.phone;
    if (o.latitude !== null && o.longitude !== null) Object.assign(office, { latitude: o.latitude, longitude: o.longitude });
    return office;
  });
  return { fields, reason: text("reason") };
}

/** The fields whose value differs from the stored broker's (offices compared as a whole). */
export function changedFields(broker: DirectoryBroker, fields: BrokerFields): BrokerFields {
  const stored: BrokerFields = { ...broker, locations: broker.locations.map(({ id: _id, ...office }) => withoutNulls(office)) };
  const changes: BrokerFields = {};
  for (const [name, value] of Object.entries(fields)) {
    const before = name === "locations" ? stored.locations : stored[name];
    const after = name === "locations" ? (value as Record<string, unknown>[]).map(withoutNulls) : value;
    if (JSON.stringify(before) !== JSON.stringify(after)) changes[name] = value;
  }
  return changes;
}

const withoutNulls = (office: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(office).filter(([, v]) => v !== null).sort(([a], [b]) => a.localeCompare(b)));
