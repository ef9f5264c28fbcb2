import { z } from "zod";
import { got } from "./fieldErrors.ts";
import { said } from "./frenchMessages.ts";

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
/** Deep pages cost an OFFSET scan; nobody reads page 50,001 of 20. */
export const MAX_PAGE = 50_000;

/**
 * A whole-number parameter that also accepts its decimal text form, because query strings are
 * text. "abc", "1.5", "" and out-of-range values are rejected with a message naming the range.
 */
export function wholeNumberParam(min: number, max: number) {
  const complaint = said(`must be a whole number from ${min} to ${max.toLocaleString("en-CA")}`, `doit être un nombre entier de ${min} à ${max.toLocaleString("fr-CA")}`);
  return z
    .preprocess(
      // Typed so tRPC clients see `number | string`, not unknown: a number, or its text in a query string.
      (value: number | string) => (typeof value === "string" && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value),
      z
        .number({ error: (issue) => complaint + got(issue.input) })
        .int({ error: (issue) => complaint + got(issue.input) })
        .min(min, { error: (issue) => complaint + got(issue.input) })
        .max(max, { error: (issue) => complaint + got(issue.input) }),
    );
}

export const pageInput = {
  page: wholeNumberParam(1, MAX_PAGE).optional().default(1).describe("Page number, from 1 (default 1)"),
  limit: wholeNumberParam(1, MAX_PAGE_SIZE).optional().default(DEFAULT_PAGE_SIZE).describe(
    `Results per page, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE})`,
  ),
};

export const paginationSchema = z.object({
  page: z.number().int().describe("The page returned"),
  limit: z.number().int().describe("Page size used"),
  total: z.number().int().describe("Total number of matching items across all pages"),
  totalPages: z.number().int().describe("ceil(total / limit); 0 when nothing matches"),
});
export type Pagination = z.infer<typeof paginationSchema>;

export function paginate(page: number, limit: number, total: number): Pagination {
  return { page, limit, total, totalPages: Math.ceil(total / limit) };
}

/** The shape of every paged answer: `{ data: [item], pagination }`. */
export function pagedSchema<T extends z.ZodType>(item: T, description: string) {
  return z.object({ data: z.array(item).describe(description), pagination: paginationSchema });
}
