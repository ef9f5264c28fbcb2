import type { ApiError } from "./api.ts";
import type { BrokerFacet, BrokerSort, FacetCounts, ReviewSort } from "./types.ts";

/**
 * The search rules, as the server states them in src/schemas/discovery.ts and reviewParams.ts
 * (which cannot be imported: they would bring zod into the bundle). test/widget/discovery.test.ts
 * checks these lists against the server's BROKER_SORTS, BROKER_FACETS and REVIEW_SORTS.
 */
export const REVIEW_SORTS = ["newest", "oldest", "highest", "lowest"] as const satisfies readonly ReviewSort[];

export const SORTS = ["name", "rating", "reviews", "distance", "relevance"] as const satisfies readonly BrokerSort[];

/** The facets the filters show counts for. */
export const FILTER_FACETS = ["province", "insuranceType"] as const satisfies readonly BrokerFacet[];

/** Sorts the server accepts with these inputs: distance needs near, relevance needs q (else a 422). */
export function sortsFor(q: string, near: string): BrokerSort[] {
  return SORTS.filter((sort) => (sort !== "distance" || near !== "") && (sort !== "relevance" || q !== ""));
}

/** The chosen sort if it is still allowed, else the default (name): a sort the server would refuse is never sent. */
export function allowedSort(sort: BrokerSort, q: string, near: string): BrokerSort {
  return sortsFor(q, near).includes(sort) ? sort : "name";
}

/** The count beside an option: undefined until counts arrived, 0 for a value no matching broker has. */
export function facetCount(facets: FacetCounts | undefined, facet: BrokerFacet, value: string): number | undefined {
  const counts = facets?.[facet];
  if (!counts) return undefined;
  const lower = value.toLowerCase();
  return counts.find((c) => c.value.toLowerCase() === lower)?.count ?? 0;
}

/** The directory's own controls, named as the query parameter each one sends. */
export const FILTER_FIELDS = ["q", "near", "province", "insuranceType", "sort"] as const;
export type FilterField = (typeof FILTER_FIELDS)[number];

/**
 * A 422's messages by the control they belong to; messages about anything else (a bad limit
 * attribute, say) under "other", so no message is lost.
 */
export function messagesByField(error: ApiError): Partial<Record<FilterField | "other", string>> {
  const placed: Partial<Record<FilterField | "other", string>> = {};
  const issues = error.issues.length > 0 ? error.issues : [{ path: "", message: error.message }];
  for (const { path, message } of issues) {
    const field = (FILTER_FIELDS as readonly string[]).includes(path) ? (path as FilterField) : "other";
    placed[field] = placed[field] ? `${placed[field]} ${message}` : message;
  }
  return placed;
}
