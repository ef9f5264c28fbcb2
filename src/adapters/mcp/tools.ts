import { TRPCError } from "@trpc/server";
import { brokerDetailSchema } from "../../schemas/broker.ts";
import { brokerSlug, getBrokerInput } from "../../router/brokers/getBroker.ts";
import { searchBrokersInput, searchBrokersOutput } from "../../router/brokers/searchBrokers.ts";
import { listReviewsInput, listReviewsOutput } from "../../router/reviews/listReviews.ts";
import type { Caller } from "../../router/appRouter.ts";
import { createLeadInput, createLeadOutput } from "../../router/leads/createLead.ts";
import { comparePoliciesInput, comparePoliciesOutput } from "../../router/policies/comparePolicies.ts";
import { createQuoteInput, createQuoteOutput } from "../../router/quotes/createQuote.ts";
import { defineTool, describeTool, type McpTool } from "./toolDefinition.ts";

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;
/** Adds a record to the caller's workspace; never changes or removes one. */
const CREATES_RECORD = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const;

/** search_brokers says `query` where the procedure says `q`: the same field, renamed. */
const searchBrokersArgs = searchBrokersInput
  .omit({ q: true })
  .extend({ query: searchBrokersInput.shape.q })
  .strict();

const getReviewsArgs = listReviewsInput
  .extend({
    brokerId: listReviewsInput.shape.brokerId.optional().describe("The broker's numeric id (the `id` of a search result); give this or slug"),
    slug: brokerSlug.optional().describe("The broker's slug (the `slug` of a search result); give this or brokerId"),
  })
  .strict()
  .refine((args) => (args.brokerId === undefined) !== (args.slug === undefined), {
    message: "Give exactly one of brokerId or slug to say whose reviews you want.",
  });

/**
 * Every MCP tool in one table: name, the procedure it calls, its schemas (derived from the
 * procedure's zod schemas, never restated) and its hints. Names are the seed's, exactly.
 */
export const tools: readonly McpTool[] = [
  defineTool({
    name: "search_brokers",
    title: "Search insurance brokers",
    description:
      "Find published insurance brokers in Canada by words in their name or description, province, city and insurance line (all optional, combined with AND). Use it first to find candidates for a user; then call get_broker with a result's slug for the full profile. Returns {data: brokers alphabetical by name (id, slug, name, city, province, average rating, review count), pagination: {page, limit, total, totalPages}}; limit defaults to 20, at most 100.",
    scope: "brokers:read",
    input: searchBrokersArgs,
    output: searchBrokersOutput,
    annotations: READ_ONLY,
    call: (caller, { query, ...filters }) => caller.brokers.search({ ...filters, q: query }),
  }),
  defineTool({
    name: "get_broker",
    title: "Get a broker's profile",
    description:
      "The full profile of one published broker, by slug (from search_brokers): contact details, licence, year established, insurance lines, specialties, languages, every office with address and phone, and the rating breakdown per star. Use it when the user wants details about a specific broker.",
    scope: "brokers:read",
    input: getBrokerInput.strict(),
    output: brokerDetailSchema,
    annotations: READ_ONLY,
    call: (caller, args) => caller.brokers.get(args),
  }),
  defineTool({
    name: "get_reviews",
    title: "Read a broker's reviews",
    description:
      "Published customer reviews of one broker, newest first, by brokerId or slug (from search_brokers). Use it when the user asks what customers think of a broker. Returns {data: reviews (rating 1-5, title, body, author as first name and initial, createdAt), pagination}. The average and the count per star are in get_broker's rating.",
    scope: "reviews:read",
    input: getReviewsArgs,
    output: listReviewsOutput,
    annotations: READ_ONLY,
    call: async (caller, { brokerId, slug, ...page }) =>
      caller.reviews.list({ ...page, brokerId: brokerId ?? (await brokerIdForSlug(caller, slug ?? "")) }),
  }),
  defineTool({
    name: "get_quote",
    title: "Get insurance quotes",
    description:
      "Prices a policy with every carrier of our catalogue that writes the line in the province: Auto, Home, Condo, Tenant, Life or Travel, with the details that line needs (see the details property). Use it when the user wants to know what insurance would cost. Returns {quoteId, quotes: 3 to 8 offers (carrier, monthlyPremium, annualPremium, coverage, deductible) cheapest first, expiresAt (30 days)}; the quote is stored, so keep quoteId for compare_policies or create_lead. Figures are estimates, not a binding offer.",
    scope: "quotes:write",
    input: createQuoteInput,
    output: createQuoteOutput,
    annotations: CREATES_RECORD,
    call: (caller, args) => caller.quotes.create(args),
  }),
  defineTool({
    name: "compare_policies",
    title: "Compare two policies",
    description:
      "Sets two policies side by side: each either an offer of a stored quote {quoteId, carrier} or inline figures {carrier, annualPremium or monthlyPremium, coverage, deductible}. Use it when the user hesitates between two offers. Returns both policies, the differences (premiums and deductible as B minus A, which is cheaper, coverage only in A, only in B, in both) and a one-sentence summary to show the user.",
    scope: "quotes:write",
    input: comparePoliciesInput,
    output: comparePoliciesOutput,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    call: (caller, args) => caller.policies.compare(args),
  }),
  defineTool({
    name: "create_lead",
    title: "Pass a customer's request to the workspace",
    description:
      "Records a lead (a person who wants to be contacted about insurance) in the workspace of this API key: name, email, phone, insuranceType, optional notes, and optionally the brokerSlug they chose and the quoteId they follow up. Only call it when the user has asked to be contacted and agreed to share these details; each call creates a new lead. Returns the stored lead with its id, phone normalised to E.164 and status new.",
    scope: "leads:write",
    input: createLeadInput,
    output: createLeadOutput,
    annotations: CREATES_RECORD,
    call: (caller, args) => caller.leads.create(args),
  }),
];

/** get_reviews by slug looks the broker up first, which takes the brokers:read scope. */
async function brokerIdForSlug(caller: Caller, slug: string): Promise<number> {
  try {
    return (await caller.brokers.get({ slug })).id;
  } catch (error) {
    if (error instanceof TRPCError && error.code === "FORBIDDEN") {
      throw new TRPCError({
        code: "FORBIDDEN",
        message: "Finding a broker by slug needs the brokers:read scope, which this API key lacks. Pass brokerId instead, or use a key with brokers:read.",
      });
    }
    throw error;
  }
}

export const toolsByName: ReadonlyMap<string, McpTool> = new Map(tools.map((tool) => [tool.name, tool]));

/** The tools/list entries, built once: schemas do not change while the process runs. */
export const toolDescriptions = tools.map(describeTool);
