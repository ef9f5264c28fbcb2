/**
 * The field tables of the interface specification (../shared/contract/interface-spec.md,
 * sections 2, 4 and 7) as data: name → type, exactly as the spec words them. Responses may
 * carry more fields; every field here must be present with this type. Change a row only
 * when the specification changes.
 */
import { expect } from "bun:test";

export type SpecType = "string" | "number" | "integer" | "boolean" | "object" | "string[]" | "object[]";
export type FieldTable = Readonly<Record<string, SpecType>>;

/** 2.1 Broker list item. */
export const BROKER_LIST_ITEM: FieldTable = {
  id: "string", name: "string", slug: "string", description: "string", province: "string", city: "string",
  averageRating: "number", reviewCount: "integer",
};

/** 2.2 Broker detail. */
export const BROKER_DETAIL: FieldTable = {
  id: "string", name: "string", slug: "string", email: "string", phone: "string", website: "string", description: "string",
  foundingYear: "integer", teamSize: "string", isVerified: "boolean", rating: "object", locations: "object[]",
  insuranceLines: "string[]", specialties: "string[]", languages: "string[]",
};
/** 2.2 rating: "averageRating (number), totalReviews (integer)". */
export const BROKER_RATING: FieldTable = { averageRating: "number", totalReviews: "integer" };
/** 2.2 locations: "each: province, city, address, postalCode (string), isPrimary (boolean)". */
export const BROKER_LOCATION: FieldTable = { province: "string", city: "string", address: "string", postalCode: "string", isPrimary: "boolean" };

/** 2.3 Review. */
export const REVIEW: FieldTable = { id: "string", rating: "integer", title: "string", content: "string", authorName: "string", createdAt: "string" };

/** 2.4 Pagination object. */
export const PAGINATION: FieldTable = { page: "integer", limit: "integer", total: "integer", totalPages: "integer" };

/** 2.5 Quote result and each of its quotes. */
export const QUOTE_RESULT: FieldTable = { quoteId: "string", insuranceType: "string", quotes: "object[]", expiresAt: "string" };
export const QUOTE_OFFER: FieldTable = { carrier: "string", monthlyPremium: "number", annualPremium: "number", coverage: "string", deductible: "number" };

/** 2.6 Embed broker item. */
export const EMBED_BROKER_ITEM: FieldTable = {
  name: "string", slug: "string", city: "string", province: "string", averageRating: "number", reviewCount: "integer",
  photoUrl: "string", insuranceLines: "string[]",
};

/** 2.7 Lead (MCP create_lead input): "all strings". */
export const LEAD: FieldTable = { name: "string", email: "string", phone: "string", insuranceType: "string", notes: "string" };

/** 4.6 search_brokers arguments. */
export const SEARCH_BROKERS_ARGS: FieldTable = { query: "string", province: "string", city: "string", insuranceType: "string", limit: "integer" };

/** 4.6 the six tools by name. */
export const MCP_TOOLS = ["search_brokers", "get_broker", "get_reviews", "create_lead", "get_quote", "compare_policies"] as const;
/** 4.6 the two resources. */
export const MCP_RESOURCES = ["broker://directory", "broker://carriers"] as const;

/** 7 Errors: "a JSON object with a string field error". */
export const ERROR: FieldTable = { error: "string" };

/** 4.1 / 4.3 / 4.5 envelopes. */
export const PAGED: FieldTable = { data: "object[]", pagination: "object" };
export const EMBED_BROKERS: FieldTable = { data: "object[]", total: "integer" };

/** The type of a JSON value in the spec's words, or a description of what it is instead. */
function specTypeOf(value: unknown, expected: SpecType): boolean {
  switch (expected) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "string[]":
      return Array.isArray(value) && value.every((v) => typeof v === "string");
    case "object[]":
      return Array.isArray(value) && value.every((v) => typeof v === "object" && v !== null && !Array.isArray(v));
  }
}

/** Every way `value` breaks `table`: missing fields and fields of another type, as readable lines. */
export function contractViolations(value: unknown, table: FieldTable, label: string): string[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [`${label}: expected an object, got ${JSON.stringify(value)?.slice(0, 80)}`];
  const record = value as Record<string, unknown>;
  const problems: string[] = [];
  for (const [field, type] of Object.entries(table)) {
    if (!(field in record)) problems.push(`${label}.${field}: missing (spec type ${type})`);
    else if (!specTypeOf(record[field], type)) problems.push(`${label}.${field}: expected ${type}, got ${JSON.stringify(record[field])?.slice(0, 80)}`);
  }
  return problems;
}

/** Asserts that `value` conforms to `table`, listing every violation when it does not. */
export function expectContract(value: unknown, table: FieldTable, label: string): void {
  expect(contractViolations(value, table, label)).toEqual([]);
}

/** The JSON Schema type keyword(s) that say a spec type. */
export function jsonSchemaTypeOf(type: SpecType): string {
  return type === "string[]" || type === "object[]" ? "array" : type;
}
