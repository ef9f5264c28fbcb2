import { defineTool, describeTool, type McpTool } from "./toolDefinition.ts";

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;
/** Adds a record to the caller's workspace; never changes or removes one. */
const CREATES_RECORD = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const;

/**
 * Every MCP tool in one table: name, the procedure it calls, its schemas (derived from the
 * procedure's zod schemas, never restated) and its hints. Names are the seed's, exactly.
 */
export const tools: readonly McpTool[] = [
  defineTool({
    name: "search_brokers",
    title: "Search insurance brokers",
    description:
      "Find published insurance brokers in Canada by words in their name or description, province, city and insurance line (all optional, combined with AND). Use it first to find candidates for a user; then call get_broker with a result's slug for the full profile. Returns {data: brokers alphabetical by name (id, slug, name, description, city, province, averageRating, reviewCount, isVerified), pagination: {page, limit, total, totalPages}}; limit defaults to 20, at most 100.",
    procedure: "brokers.search",
    annotations: READ_ONLY,
    // The spec names the free-text argument `query` where the procedure says `q`: the same field, renamed.
    args: (input) => input.omit({ q: true }).extend({ query: input.shape.q }),
    toInput: ({ query, ...filters }) => ({ ...filters, q: query }),
  }),
  defineTool({
    name: "get_broker",
    title: "Get a broker's profile",
    description:
      "The full profile of one published broker, by slug (from search_brokers): contact details (email, phone, website), foundingYear, teamSize, isVerified (licence checked with the regulator), insurance lines, specialties, languages, every office with address and phone, and rating {averageRating, totalReviews, distribution per star}. Use it when the user wants details about a specific broker.",
    procedure: "brokers.get",
    annotations: READ_ONLY,
  }),
  defineTool({
    name: "get_reviews",
    title: "Read a broker's reviews",
    description:
      "Published customer reviews of one broker, newest first, by brokerId (the string `id` of a search result) or slug. Use it when the user asks what customers think of a broker. Returns {data: reviews (id, rating 1-5, title, content, authorName as first name and initial, createdAt), pagination}. The average and the count per star are in get_broker's rating.",
    procedure: "reviews.list",
    annotations: READ_ONLY,
  }),
  defineTool({
    name: "get_quote",
    title: "Get insurance quotes",
    description:
      "Prices a policy with every carrier of our catalogue that writes the line in the province: Auto, Home, Condo, Tenant, Life or Travel, with the details that line needs (see the details property). Use it when the user wants to know what insurance would cost. Returns {quoteId, quotes: 3 to 8 offers (carrier, monthlyPremium, annualPremium, coverage, deductible) cheapest first, expiresAt (30 days)}; the quote is stored, so keep quoteId for compare_policies or create_lead; to retry safely, pass the same idempotencyKey. Figures are estimates, not a binding offer.",
    procedure: "quotes.create",
    annotations: CREATES_RECORD,
  }),
  defineTool({
    name: "compare_policies",
    title: "Compare two policies",
    description:
      "Sets two policies side by side: each either an offer of a stored quote {quoteId, carrier} or inline figures {carrier, annualPremium or monthlyPremium, coverage, deductible}. Use it when the user hesitates between two offers. Returns both policies, the differences (premiums and deductible as B minus A, which is cheaper, coverage only in A, only in B, in both) and a one-sentence summary to show the user.",
    procedure: "policies.compare",
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  }),
  defineTool({
    name: "create_lead",
    title: "Pass a customer's request to the workspace",
    description:
      "Records a lead (a person who wants to be contacted about insurance) in the workspace of this API key: name, email, phone, insuranceType, optional notes, and optionally the brokerSlug they chose and the quoteId they follow up. Only call it when the user has asked to be contacted and agreed to share these details; each call creates a new lead (a retry with the same idempotencyKey returns the first one instead). Returns the stored lead with its id, phone normalised to E.164 and status new.",
    procedure: "leads.create",
    annotations: CREATES_RECORD,
  }),
];

export const toolsByName: ReadonlyMap<string, McpTool> = new Map(tools.map((tool) => [tool.name, tool]));

/** The tools/list entries, built once: schemas do not change while the process runs. */
export const toolDescriptions = tools.map(describeTool);
