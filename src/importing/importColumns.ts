import { BROKER_FIELDS, OFFICE_FIELDS, REVIEW_FIELDS } from "../schemas/directoryRecords.ts";
import type { CellKind } from "./cellDecoding.ts";
import type { ColumnPlan } from "./csvRecords.ts";

/**
 * The CSV columns of each kind of file: the records' field names (spec 2.2, camelCase). A
 * brokers file is one row per office: the broker's fields and one office's (`locations` in
 * JSON). An office's own phone has no column (`phone` is the broker's): JSON files give it.
 */
export const CSV_BROKER_COLUMNS = BROKER_FIELDS.filter((field) => field !== "locations");
export const CSV_OFFICE_COLUMNS = OFFICE_FIELDS.filter((field) => field !== "phone");

export const BROKER_COLUMNS: ColumnPlan = {
  columns: [...CSV_BROKER_COLUMNS, ...CSV_OFFICE_COLUMNS],
  required: [["name"], ["address"], ["city"], ["province"], ["postalCode"]],
};

export const REVIEW_COLUMNS: ColumnPlan = {
  columns: REVIEW_FIELDS,
  required: [["externalId"], ["brokerExternalId", "brokerSlug"], ["rating"], ["content"], ["authorName"], ["createdAt"]],
};

/** Columns whose cells are not plain text (the rest are). */
export const CELL_KINDS: Readonly<Record<string, CellKind>> = {
  insuranceLines: "list",
  specialties: "list",
  languages: "list",
  isVerified: "boolean",
  published: "boolean",
  isPrimary: "boolean",
  foundingYear: "number",
  latitude: "number",
  longitude: "number",
  rating: "number",
};
