import { z } from "zod";
import { said } from "./frenchMessages.ts";
import { wholeNumberParam } from "./pagination.ts";

/** Review orders: newest (default), oldest, highest rated, lowest rated (each then newest first). */
export const REVIEW_SORTS = ["newest", "oldest", "highest", "lowest"] as const;
export type ReviewSort = (typeof REVIEW_SORTS)[number];

export const reviewSortParam = z
  .enum(REVIEW_SORTS, { error: said(`must be one of ${REVIEW_SORTS.join(", ")}`, `doit être l’une des valeurs ${REVIEW_SORTS.join(", ")}`) })
  .optional()
  .default("newest")
  .describe("Order: newest (default), oldest, highest (best rated first) or lowest; ties newest first");

export const reviewRatingParam = wholeNumberParam(1, 5)
  .optional()
  .describe("Only reviews with this many stars, 1 to 5");
