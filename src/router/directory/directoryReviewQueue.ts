import { z } from "zod";
import { REVIEW_STATES } from "../../domain/directoryStates.ts";
import { pageInput, paginate, pagedSchema, wholeNumberParam } from "../../schemas/pagination.ts";
import { scopedProcedure } from "../trpc.ts";
import { brokerOrThrow, directoryReviewSchema, toDirectoryReview } from "./directoryViews.ts";
import { said } from "../../schemas/frenchMessages.ts";

/**
 * The moderation queue (issue 27 section 4): reviews across the whole directory, newest first,
 * in every state, each with its broker's rating as it now stands, so hiding one shows its effect
 * at once. The console's Reviews page reads it; the write API's other readers are per broker.
 */

export const reviewQueueInput = z.object({
  ...pageInput,
  state: z.enum(REVIEW_STATES, { error: said(`must be one of ${REVIEW_STATES.join(", ")}`, `doit être l’une des valeurs ${REVIEW_STATES.join(", ")}`) }).optional().describe("Only reviews in this state (default: every state)"),
  rating: wholeNumberParam(1, 5).optional().describe("Only reviews with this many stars"),
  broker: z.string({ error: said("must be a broker's id", "doit être l’id d’un courtier") }).max(20).optional().describe("Only the reviews of the broker with this id"),
});

export const queuedReviewSchema = directoryReviewSchema.extend({
  broker: z
    .object({
      id: z.string(),
      name: z.string(),
      slug: z.string(),
      averageRating: z.number().describe("Mean of its published reviews' ratings, as of this answer; 0 when none"),
      reviewCount: z.number().int().describe("Its published reviews, as of this answer"),
    })
    .describe("The broker the review is about"),
});
export type QueuedReviewView = z.infer<typeof queuedReviewSchema>;

export const directoryReviewQueue = scopedProcedure("directory:write")
  .input(reviewQueueInput)
  .output(pagedSchema(queuedReviewSchema, "Reviews across the directory in every state, newest first"))
  .query(async ({ ctx, input }) => {
    const { directory } = ctx.services;
    // An unknown broker is a 404 rather than an empty page: the filter is mistyped, not empty.
    const brokerId = input.broker === undefined || input.broker === "" ? undefined : (await brokerOrThrow(directory, input.broker)).broker.id;
    const { items, total } = await directory.reviewQueue.list({ state: input.state, rating: input.rating, brokerId, page: input.page, limit: input.limit });
    return {
      data: items.map(({ review, broker }) => ({
        ...toDirectoryReview(review),
        broker: { id: String(broker.id), name: broker.name, slug: broker.slug, averageRating: broker.averageRating ?? 0, reviewCount: broker.reviewCount },
      })),
      pagination: paginate(input.page, input.limit, total),
    };
  });
