import { BROKER_COLUMNS, REVIEW_COLUMNS } from "../importing/importColumns.ts";
import type { ExportedBroker, ExportedReview } from "../storage/stores/directoryExportStore.ts";

/**
 * The directory as `import` reads it (issue 27): the same fields, so import(export(x)) finds
 * every row unchanged. A review made without an externalId (the demo data) is exported with the
 * key `review:<id>`, by which an import finds it again.
 */

/** The key an exported review carries when it has no externalId of its own. */
export const reviewKeyOf = (review: { id: number; externalId: string | null }) => review.externalId ?? `review:${review.id}`;

/** A broker as an NDJSON/JSON record (the detail shape, `locations` its offices). */
export function brokerRecordOf({ broker, offices }: ExportedBroker): Record<string, unknown> {
  return {
    externalId: broker.externalId,
    name: broker.name,
    slug: broker.slug,
    email: broker.email,
    phone: broker.phone,
    website: broker.website,
    description: broker.description,
    foundingYear: broker.foundingYear,
    teamSize: broker.teamSize,
    isVerified: broker.isVerified,
    published: broker.published,
    licenseNumber: broker.licenseNumber,
    insuranceLines: broker.insuranceLines,
    specialties: broker.specialties,
    languages: broker.languages,
    locations: offices.map((office) => ({
      address: office.address,
      city: office.city,
      province: office.province,
      postalCode: office.postalCode,
      isPrimary: office.isPrimary,
      latitude: office.latitude,
      longitude: office.longitude,
      phone: office.phone,
    })),
  };
}

type Cell = string | number | null;
const cell = (value: unknown): Cell =>
  value === null || value === undefined ? null : Array.isArray(value) ? value.join(";") : typeof value === "boolean" ? String(value) : (value as string | number);

/**
 * A broker as CSV rows, one an office (an office's own phone has no CSV column: NDJSON keeps it).
 * The broker's fields are on its first row; later rows repeat only its keys (externalId, slug),
 * which is how import groups them.
 */
export function brokerCsvRows(exported: ExportedBroker): Cell[][] {
  const record = brokerRecordOf(exported);
  const offices = record.locations as Record<string, unknown>[];
  return offices.map((office, index) =>
    BROKER_COLUMNS.columns.map((column) => {
      if (column in office && column !== "phone") return cell(office[column]);
      if (index > 0 && column !== "externalId" && column !== "slug") return null;
      return cell(record[column]);
    }),
  );
}

export const BROKER_CSV_HEADER = BROKER_COLUMNS.columns;
export const REVIEW_CSV_HEADER = REVIEW_COLUMNS.columns;

export function reviewRecordOf({ review, brokerExternalId, brokerSlug }: ExportedReview): Record<string, unknown> {
  return {
    externalId: reviewKeyOf(review),
    ...(brokerExternalId !== null ? { brokerExternalId } : { brokerSlug }),
    rating: review.rating,
    title: review.title,
    content: review.body,
    authorName: review.authorName,
    createdAt: new Date(review.createdAt).toISOString(),
  };
}

export function reviewCsvRow(exported: ExportedReview): Cell[] {
  const record = reviewRecordOf(exported);
  return REVIEW_CSV_HEADER.map((column) => cell(record[column]));
}
