import { brokerDetailSchema } from "../../schemas/broker.ts";
import { getBrokerInput } from "../../router/brokers/getBroker.ts";
import { searchBrokersInput, searchBrokersOutput } from "../../router/brokers/searchBrokers.ts";
import { listReviewsInput, listReviewsOutput } from "../../router/reviews/listReviews.ts";
import { listCarriersInput, listCarriersOutput } from "../../router/carriers/listCarriers.ts";
import { embedBrokersInput, embedBrokersOutput } from "../../router/embed/embedBrokers.ts";
import { embedReviewsInput, embedReviewsOutput } from "../../router/embed/embedReviews.ts";
import { createLeadInput, createLeadOutput } from "../../router/leads/createLead.ts";
import { listLeadsInput, listLeadsOutput } from "../../router/leads/listLeads.ts";
import { comparePoliciesInput, comparePoliciesOutput } from "../../router/policies/comparePolicies.ts";
import { createQuoteInput, createQuoteOutput } from "../../router/quotes/createQuote.ts";
import { getQuoteInput, getQuoteOutput } from "../../router/quotes/getQuote.ts";
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
    directoryRead: true,
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
    directoryRead: true,
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
    directoryRead: true,
    envelope: "as-is",
    call: (caller, { params, query }) => caller.reviews.list({ ...query, brokerId: params.brokerId }),
  },
  // Bodies are handed over as parsed: each procedure's schema validates them (hence `as never`).
  {
    method: "POST",
    path: "/api/v1/embed/quotes",
    surface: "embed",
    scope: "quotes:write",
    summary: "Request quotes: 3 to 8 carrier offers, cheapest first, stored for 30 days",
    input: createQuoteInput,
    output: createQuoteOutput,
    body: true,
    status: 201,
    envelope: "data",
    call: (caller, { body }) => caller.quotes.create(body as never),
  },
  {
    method: "GET",
    path: "/api/v1/embed/quotes/:quoteId",
    surface: "embed",
    scope: "quotes:write",
    summary: "Get a quote of this workspace (expired quotes stay readable)",
    input: getQuoteInput,
    output: getQuoteOutput,
    envelope: "data",
    call: (caller, { params }) => caller.quotes.get({ quoteId: params.quoteId ?? "" }),
  },
  {
    method: "POST",
    path: "/api/v1/policies/compare",
    surface: "rest",
    scope: "quotes:write",
    summary: "Compare two policies (quoted offers or inline figures) side by side",
    input: comparePoliciesInput,
    output: comparePoliciesOutput,
    body: true,
    envelope: "data",
    call: (caller, { body }) => caller.policies.compare(body as never),
  },
  createLeadRoute("/api/v1/leads", "rest", "Create a lead in this workspace"),
  {
    method: "GET",
    path: "/api/v1/leads",
    surface: "rest",
    scope: "leads:read",
    summary: "List this workspace's leads, newest first",
    input: listLeadsInput,
    output: listLeadsOutput,
    envelope: "as-is",
    call: (caller, { query }) => caller.leads.list(query),
  },
  createLeadRoute("/api/v1/embed/leads", "embed", "Create a lead from a partner page (widget)"),
  {
    method: "GET",
    path: "/api/v1/carriers",
    surface: "rest",
    scope: "brokers:read",
    summary: "List the carrier catalogue quotes are drawn from",
    input: listCarriersInput,
    output: listCarriersOutput,
    envelope: "as-is",
    call: (caller, { query }) => caller.carriers.list(query),
  },
  {
    method: "GET",
    path: "/api/v1/embed/brokers",
    surface: "embed",
    scope: "brokers:read",
    summary: "Published brokers for the directory widget, with lines and picture",
    input: embedBrokersInput,
    output: embedBrokersOutput,
    directoryRead: true,
    envelope: "as-is",
    call: (caller, { query }) => caller.embed.brokers(query),
  },
  {
    method: "GET",
    path: "/api/v1/embed/reviews",
    surface: "embed",
    scope: "reviews:read",
    summary: "A broker's rating summary and latest published reviews, for the reviews widget",
    input: embedReviewsInput,
    output: embedReviewsOutput,
    directoryRead: true,
    envelope: "data",
    call: (caller, { query }) => caller.embed.reviews(query as never),
  },
];

/** Leads are created the same way from servers and from partner pages; only the door differs. */
function createLeadRoute(path: string, surface: RestRoute["surface"], summary: string): RestRoute {
  return {
    method: "POST",
    path,
    surface,
    scope: "leads:write",
    summary,
    input: createLeadInput,
    output: createLeadOutput,
    body: true,
    status: 201,
    envelope: "data",
    call: (caller, { body }) => caller.leads.create(body as never),
  };
}
