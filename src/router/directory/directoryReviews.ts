import { z } from "zod";
import { strictRecordObject } from "../../schemas/directoryRecords.ts";
import { pageInput, paginate, pagedSchema } from "../../schemas/pagination.ts";
import * as field from "../../schemas/recordFields.ts";
import { invalidInput } from "../quotes/invalidInput.ts";
import { answerFromHeld } from "./answeredOnce.ts";
import { createOnce } from "../idempotency.ts";
import { scopedProcedure } from "../trpc.ts";
import {
  actorOf,
  auditEntrySchema,
  brokerIdInput,
  brokerOrThrow,
  directoryReviewSchema,
  HIDE_REASONS,
  reasonInput,
  reviewIdInput,
  reviewOrThrow,
  toAuditView,
  toDirectoryReview,
} from "./directoryViews.ts";
import { said } from "../../schemas/frenchMessages.ts";

/**
 * A broker's reviews through the write API (issue 27 section 2): added by the operator (fields
 * as the import's review records), hidden with a reason or restored. The author's text is never
 * edited: only whether the review is published. A hidden review leaves the public reads and the
 * broker's rating in the same transaction (the reviews table's triggers).
 */

export const listDirectoryReviews = scopedProcedure("directory:write")
  .input(z.object({ id: brokerIdInput, ...pageInput }))
  .output(pagedSchema(directoryReviewSchema, "The broker's reviews in every state, newest first"))
  .query(async ({ ctx, input }) => {
    const { directory } = ctx.services;
    const broker = await brokerOrThrow(directory, input.id);
    const { items, total } = await directory.listReviews(broker.broker.id, input.page, input.limit);
    return { data: items.map(toDirectoryReview), pagination: paginate(input.page, input.limit, total) };
  });

export const addDirectoryReviewInput = strictRecordObject("a review", "un avis", {
  id: brokerIdInput,
  externalId: field.orNull(field.externalId),
  rating: field.wholeNumber(1, 5),
  title: field.freeText(200).optional().transform((title) => title ?? ""),
  content: field.freeText(10_000).min(1, { error: said("is required", "est obligatoire") }),
  authorName: field.lineText(100),
  createdAt: field.pastTimestampField.optional().describe("When the author wrote it (ISO 8601, not in the future); default: now"),
  reason: reasonInput(1_000),
});

/**
 * Adds an operator-collected review to a broker, published at once. With an Idempotency-Key
 * (issue 28 §2) a retry replays the first answer and adds nothing more: the key is claimed in
 * the review's own transaction, with the answer made from the review as written.
 */
export const addDirectoryReview = scopedProcedure("directory:write")
  .meta({ idempotent: true })
  .input(addDirectoryReviewInput)
  .output(directoryReviewSchema)
  .mutation(({ ctx, input, path }) => createOnce(ctx, path, input, async (claim) => {
    const { directory } = ctx.services;
    const broker = await brokerOrThrow(directory, input.id);
    const now = ctx.services.now();
    const added = await directory.addReview(
      broker.broker.id,
      { externalId: input.externalId, authorName: input.authorName, rating: input.rating, title: input.title, body: input.content, createdAt: input.createdAt ? Date.parse(input.createdAt) : now },
      { actor: actorOf(ctx.principal), reason: input.reason ?? "", now },
      claim && ((stored) => claim.recordOf(toDirectoryReview(stored))),
    );
    if ("held" in added) return answerFromHeld(claim, added.held, directoryReviewSchema);
    if (added.written === "externalId") throw invalidInput([{
        path: ["externalId"],
        message: `"${input.externalId}" is already the externalId of another review`,
        fr: `« ${input.externalId} » est déjà l’externalId d’un autre avis`,
      }]);
    return toDirectoryReview(added.written);
  }));

export const hideDirectoryReviewInput = z
  .strictObject({
    reviewId: reviewIdInput,
    reason: z.enum(HIDE_REASONS, { error: said(`must be one of ${HIDE_REASONS.map((r) => JSON.stringify(r)).join(", ")}`, `doit être l’une des valeurs ${HIDE_REASONS.map((r) => JSON.stringify(r)).join(", ")}`) }).describe(`Why: ${HIDE_REASONS.join(", ")}`),
    note: field.freeText(1_000).optional().describe('More about why (required with reason "other")'),
  })
  .superRefine((input, ctx) => {
    if (input.reason === "other" && !input.note?.trim()) ctx.addIssue({ code: "custom", path: ["note"], message: said('is required with reason "other": say why', 'est obligatoire avec la raison "other" : dites pourquoi') });
  });

/** Hides a review: off every public read and out of the broker's rating at once; its text is kept as written. */
export const hideDirectoryReview = scopedProcedure("directory:write")
  .input(hideDirectoryReviewInput)
  .output(directoryReviewSchema)
  .mutation(async ({ ctx, input }) => {
    const { directory } = ctx.services;
    const review = await reviewOrThrow(directory, input.reviewId);
    const note = input.note?.trim() || null;
    const reason = note ? `${input.reason}: ${note}` : input.reason;
    await directory.setReviewPublished(review, false, { actor: actorOf(ctx.principal), reason, now: ctx.services.now() }, { reason: input.reason, note });
    return reviewView(directory, review.brokerId, review.id);
  });

/** Publishes a hidden review again (twice is fine). */
export const restoreDirectoryReview = scopedProcedure("directory:write")
  .input(z.strictObject({ reviewId: reviewIdInput, reason: reasonInput(1_000) }))
  .output(directoryReviewSchema)
  .mutation(async ({ ctx, input }) => {
    const { directory } = ctx.services;
    const review = await reviewOrThrow(directory, input.reviewId);
    await directory.setReviewPublished(review, true, { actor: actorOf(ctx.principal), reason: input.reason ?? "", now: ctx.services.now() });
    return reviewView(directory, review.brokerId, review.id);
  });

/** The review as it now is, with its moderation. */
async function reviewView(directory: Parameters<typeof reviewOrThrow>[0], brokerId: number, reviewId: number) {
  const review = (await reviewOrThrow(directory, String(reviewId)))!;
  if (review.published) return toDirectoryReview(review);
  const { items } = await directory.listReviewsById(brokerId, [reviewId]);
  return toDirectoryReview(items[0] ?? review);
}

/** A broker's history, newest first: every change to it and its reviews, who made it, what changed, and why. */
export const directoryBrokerHistory = scopedProcedure("directory:write")
  .input(z.object({ id: brokerIdInput, ...pageInput }))
  .output(pagedSchema(auditEntrySchema, "The broker's history, newest first"))
  .query(async ({ ctx, input }) => {
    const { directory } = ctx.services;
    const broker = await brokerOrThrow(directory, input.id);
    const { items, total } = await directory.historyOf(broker.broker.id, input.page, input.limit);
    return { data: items.map(toAuditView), pagination: paginate(input.page, input.limit, total) };
  });
