import { publishedBrokerRef } from "../../storage/stores/brokerStore.ts";
import { publishedBrokerOrThrow } from "../brokers/publishedBroker.ts";
import { z } from "zod";
import { averageRating, brokerSlug, ratingSchema } from "../../schemas/broker.ts";
import { reviewRatingParam, reviewSortParam } from "../../schemas/reviewParams.ts";
import { wholeNumberParam } from "../../schemas/pagination.ts";
import { reviewSchema } from "../../schemas/review.ts";
import { scopedProcedure } from "../trpc.ts";
import { brokerPhotoUrl } from "./photoUrl.ts";

export const EMBED_REVIEWS_DEFAULT_LIMIT = 5;
export const EMBED_REVIEWS_MAX_LIMIT = 50;

export const embedReviewsInput = z.object({
  broker: brokerSlug,
  sort: reviewSortParam,
  rating: reviewRatingParam,
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
    distribution: ratingSchema.shape.distribution,
  }),
  reviews: z.array(reviewSchema.omit({ brokerId: true })).describe("Published reviews in the order asked for (the latest first by default)"),
});

/** The reviews widget: a published broker's rating summary and latest published reviews. */
export const embedReviews = scopedProcedure("reviews:read")
  .meta({ directoryRead: true })
  .input(embedReviewsInput)
  .output(embedReviewsOutput)
  .query(({ ctx, input }) => {
    const broker = publishedBrokerOrThrow(ctx.services, input.broker);
    const reviews = ctx.services.brokers.reviewsOf(publishedBrokerRef(broker), 1, input.limit, { sort: input.sort, rating: input.rating });
    return {
      broker: {
        id: broker.id,
        name: broker.name,
        slug: broker.slug,
        averageRating: broker.averageRating,
        reviewCount: broker.reviewCount,
        isVerified: broker.isVerified,
        photoUrl: brokerPhotoUrl(ctx.baseUrl, broker.slug),
        distribution: broker.rating.distribution,
      },
      reviews: reviews.map(({ brokerId: _brokerId, ...review }) => review),
    };
  });
