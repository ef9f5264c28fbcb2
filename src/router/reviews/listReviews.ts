import { CodedError } from "../../schemas/errorCodes.ts";
import { z } from "zod";
import { brokerSlug } from "../../schemas/broker.ts";
import { DEFAULT_PAGE_SIZE, pageInput, paginate, pagedSchema } from "../../schemas/pagination.ts";
import { reviewRatingParam, reviewSortParam } from "../../schemas/reviewParams.ts";
import { reviewSchema } from "../../schemas/review.ts";
import { publishedBrokerRef, type PublishedBroker } from "../../storage/stores/brokerStore.ts";
import type { Services } from "../../services.ts";
import { publishedBrokerOrThrow } from "../brokers/publishedBroker.ts";
import { scopedProcedure } from "../trpc.ts";
import type { RenderedAnswer } from "../renderedAnswer.ts";
import { said } from "../../schemas/frenchMessages.ts";

export const listReviewsInput = z
  .object({
    brokerId: z
      .string({ error: said('must be text: the broker\'s id, e.g. "92"', 'doit être du texte : l’id du courtier, p. ex. "92"') })
      .max(100, { error: said("must be at most 100 characters", "doit compter au plus 100 caractères") })
      .optional()
      .describe("The broker's id (the `id` of a search result, not the slug); give this or slug"),
    slug: brokerSlug.optional().describe("The broker's slug (the `slug` of a search result); give this or brokerId"),
    sort: reviewSortParam,
    rating: reviewRatingParam,
    ...pageInput,
  })
  .refine((input) => (input.brokerId === undefined) !== (input.slug === undefined), {
    message: said("Give exactly one of brokerId or slug to say whose reviews you want.", "Donnez exactement l’un de brokerId ou slug pour dire de quel courtier vous voulez les avis."),
  });

export const listReviewsOutput = pagedSchema(reviewSchema, "Published reviews, in the order asked for (newest first by default)");

/**
 * A published broker's published reviews, newest first unless asked otherwise, optionally of
 * one star rating only, by id or by slug. Either way only
 * reviews:read is needed: a slug names a public broker, and the answer holds only reviews.
 * The page is built by our code from typed rows (see Meta.trustedOutput): a review's text is
 * customers' words, but a string passes the output schema as it is.
 */
export const listReviews = scopedProcedure("reviews:read")
  .meta({ trustedOutput: true, directoryRead: true })
  .input(listReviewsInput)
  .output(listReviewsOutput)
  .query(({ ctx, input }) => {
    const broker = reviewedBroker(ctx.services, input);
    const data = ctx.services.brokers.reviewsOf(broker, input.page, input.limit, { sort: input.sort, rating: input.rating });
    const total = input.rating === undefined ? broker.reviewCount : broker.starCounts[input.rating - 1]!;
    return { data, pagination: paginate(input.page, input.limit, total) };
  });

/** Any id or slug that names no published broker is NOT_FOUND, whatever its form. */
function reviewedBroker(services: Services, input: { brokerId?: string; slug?: string }): PublishedBroker {
  if (input.slug !== undefined) {
    return publishedBrokerRef(publishedBrokerOrThrow(services, input.slug));
  }
  const id = input.brokerId ?? "";
  const broker = services.brokers.findById(id);
  if (!broker) {
    throw new CodedError("broker_not_found", `No published broker has the id ${JSON.stringify(id.slice(0, 100))}. Use the \`id\` of a search result (not its slug).`);
  }
  return broker;
}

/**
 * reviews.list's answer for the first page of a broker's reviews (page 1, the default limit,
 * newest first, every rating, the broker named by id: what a profile shows first), kept as it is
 * first answered (BrokerStore.keepReviewPage). Anything else is not kept.
 */
export const renderedReviewPage: RenderedAnswer = {
  read(services, input) {
    const brokerId = firstPageOf(input);
    return brokerId === undefined ? undefined : services.brokers.renderedReviewPage(brokerId);
  },
  keep(services, input, version, text) {
    const brokerId = firstPageOf(input);
    if (brokerId !== undefined) services.brokers.keepReviewPage(brokerId, version, text);
  },
};

/** The broker id of an input (passed through the procedure's schema) asking for a broker's first page, else undefined. */
function firstPageOf(input: unknown): string | undefined {
  const parsed = listReviewsInput.safeParse(input);
  if (!parsed.success) return undefined;
  const { brokerId, sort, rating, page, limit } = parsed.data;
  return page === 1 && limit === DEFAULT_PAGE_SIZE && sort === "newest" && rating === undefined ? brokerId : undefined;
}
