import { publishedBrokerRef } from "../../storage/stores/brokerStore.ts";
import { publishedBrokerOrThrow } from "../brokers/publishedBroker.ts";
import { z } from "zod";
import { averageRating, brokerSlug, ratingSchema } from "../../schemas/broker.ts";
import { reviewRatingParam, reviewSortParam } from "../../schemas/reviewParams.ts";
import { MAX_PAGE, wholeNumberParam } from "../../schemas/pagination.ts";
import { reviewSchema } from "../../schemas/review.ts";
import { scopedProcedure } from "../trpc.ts";
import { brokerPhotoUrl } from "./photoUrl.ts";

export const EMBED_REVIEWS_DEFAULT_LIMIT = 5;
export const EMBED_REVIEWS_MAX_LIMIT = 50;

export const embedReviewsInput = z.object({
  broker: brokerSlug,
  sort: reviewSortParam,
  rating: reviewRatingParam,
  page: wholeNumberParam(1, MAX_PAGE).optional().default(1).describe("Page number, from 1 (default 1): the widget's Show more"),
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
  total: z.number().int().describe("How many published reviews match (with rating: those with that many stars); more pages follow while page × limit is below it"),
});

/** The reviews widget: a published broker's rating summary and latest published reviews. */
export const embedReviews = scopedProcedure("reviews:read")
  .meta({ directoryRead: true })
  .input(embedReviewsInput)
  .output(embedReviewsOutput)
  .query(({ ctx, input }) => {
    const broker = publishedBrokerOrThrow(ctx.services, input.broker);
    const reviews = ctx.services.brokers.reviewsOf(publishedBrokerRef(broker), input.page, input.limit, { sort: input.sort, rating: input.rating });
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
      // The distribution counts the published reviews per star: no second query for the total.
      total: input.rating === undefined ? broker.reviewCount : broker.rating.distribution[String(input.rating) as "1" | "2" | "3" | "4" | "5"],
    };
  });
