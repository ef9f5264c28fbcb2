import { brokerDetailSchema } from "../../schemas/broker.ts";
import { getBrokerInput } from "../../router/brokers/getBroker.ts";
import { searchBrokersInput, searchBrokersOutput } from "../../router/brokers/searchBrokers.ts";
import { listReviewsInput, listReviewsOutput } from "../../router/reviews/listReviews.ts";
import type { RestRoute } from "./restRoute.ts";

/**
 * Every REST path of /api/v1 in one table: method, path, scope, the procedure it calls and
 * how its result is wrapped. The OpenAPI document and the README are written from this.
 */
export const restRoutes: readonly RestRoute[] = [
  {
    method: "GET",
    path: "/api/v1/brokers",
    surface: "rest",
    scope: "brokers:read",
    summary: "Search published brokers",
    input: searchBrokersInput,
    output: searchBrokersOutput,
    envelope: "as-is",
    call: (caller, { query }) => caller.brokers.search(query),
  },
  {
    method: "GET",
    path: "/api/v1/brokers/:slug",
    surface: "rest",
    scope: "brokers:read",
    summary: "Get a published broker by slug",
    input: getBrokerInput,
    output: brokerDetailSchema,
    envelope: "data",
    call: (caller, { params }) => caller.brokers.get({ slug: params.slug ?? "" }),
  },
  {
    method: "GET",
    path: "/api/v1/reviews/:brokerId",
    surface: "rest",
    scope: "reviews:read",
    summary: "List a published broker's reviews, newest first",
    input: listReviewsInput,
    output: listReviewsOutput,
    envelope: "as-is",
    call: (caller, { params, query }) => caller.reviews.list({ ...query, brokerId: params.brokerId }),
  },
];
