import { publishedBrokerOrThrow } from "../brokers/publishedBroker.ts";
import { z } from "zod";
import { averageRating } from "../../schemas/broker.ts";
import { wholeNumberParam } from "../../schemas/pagination.ts";
import { reviewSchema } from "../../schemas/review.ts";
import { brokerSlug } from "../brokers/getBroker.ts";
import { scopedProcedure } from "../trpc.ts";
import { brokerPhotoUrl } from "./photoUrl.ts";

export const EMBED_REVIEWS_DEFAULT_LIMIT = 5;
export const EMBED_REVIEWS_MAX_LIMIT = 50;

export const embedReviewsInput = z.object({
  broker: brokerSlug,
  limit: wholeNumberParam(1, EMBED_REVIEWS_MAX_LIMIT)
    .optional()
    .default(EMBED_REVIEWS_DEFAULT_LIMIT)
    .describe(`Reviews to return, 1 to ${EMBED_REVIEWS_MAX_LIMIT} (default ${EMBED_REVIEWS_DEFAULT_LIMIT})`),
});

export const embedReviewsOutput = z.object({
  broker: z.object({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    averageRating,
    reviewCount: z.number().int(),
    isVerified: z.boolean().describe("Licence checked with the provincial regulator"),
    photoUrl: z.string(),
  }),
  reviews: z.array(reviewSchema.omit({ brokerId: true })).describe("The latest published reviews, newest first"),
});

/** The reviews widget: a published broker's rating summary and latest published reviews. */
export const embedReviews = scopedProcedure("reviews:read")
  .input(embedReviewsInput)
  .output(embedReviewsOutput)
  .query(({ ctx, input }) => {
    const broker = publishedBrokerOrThrow(ctx.services, input.broker);
    const reviews = ctx.services.brokers.reviewsOf({ rowId: Number(broker.id), ...broker }, 1, input.limit);
    return {
      broker: {
        id: broker.id,
        name: broker.name,
        slug: broker.slug,
        averageRating: broker.averageRating,
        reviewCount: broker.reviewCount,
        isVerified: broker.isVerified,
        photoUrl: brokerPhotoUrl(ctx.baseUrl, broker.slug),
      },
      reviews: reviews.map(({ brokerId: _brokerId, ...review }) => review),
    };
  });
