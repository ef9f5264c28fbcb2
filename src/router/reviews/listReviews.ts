import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { pageInput, paginate, pagedSchema, wholeNumberParam } from "../../schemas/pagination.ts";
import { reviewSchema } from "../../schemas/review.ts";
import { scopedProcedure } from "../trpc.ts";

export const listReviewsInput = z.object({
  brokerId: wholeNumberParam(1, Number.MAX_SAFE_INTEGER).describe("The broker's numeric id"),
  ...pageInput,
});

export const listReviewsOutput = pagedSchema(reviewSchema, "Published reviews, newest first");

/** A published broker's published reviews, newest first. */
export const listReviews = scopedProcedure("reviews:read")
  .input(listReviewsInput)
  .output(listReviewsOutput)
  .query(({ ctx, input }) => {
    const broker = ctx.services.brokers.findById(input.brokerId);
    if (!broker) {
      throw new TRPCError({ code: "NOT_FOUND", message: `No published broker has the id ${input.brokerId}.` });
    }
    const data = ctx.services.brokers.reviewsOf(broker.id, input.page, input.limit);
    return { data, pagination: paginate(input.page, input.limit, broker.reviewCount) };
  });
