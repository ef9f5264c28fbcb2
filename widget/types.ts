/**
 * Shapes of the embed API answers, taken from the server's own zod schemas. `import type`
 * is erased by the bundler: the widget gets the types and not one byte of zod or the server.
 */
import type { z } from "zod";
import type { embedBrokerDetailSchema } from "../src/router/embed/embedBroker.ts";
import type { embedBrokerSchema, embedBrokersInput, embedBrokersOutput } from "../src/router/embed/embedBrokers.ts";
import type { embedReviewsInput, embedReviewsOutput } from "../src/router/embed/embedReviews.ts";
import type { leadSchema } from "../src/schemas/lead.ts";
import type { quoteOfferSchema, quoteSchema } from "../src/schemas/quote.ts";
import type { BrokerFacet, BrokerSort } from "../src/schemas/discovery.ts";
import type { ReviewSort } from "../src/schemas/reviewParams.ts";

type EmbedReviews = z.infer<typeof embedReviewsOutput>;

/** A query string as the widget sends it: only parameter names the server's input schema knows. */
type QueryOf<Input extends z.ZodType> = { [K in keyof z.input<Input>]?: string | number };

export type BrokerCard = z.infer<typeof embedBrokerSchema>;
export type BrokerProfile = z.infer<typeof embedBrokerDetailSchema>;
export type BrokerOffice = BrokerProfile["locations"][number];
export type BrokerPage = z.infer<typeof embedBrokersOutput>;
export type FacetCounts = NonNullable<BrokerPage["facets"]>;
export type BrokersQuery = QueryOf<typeof embedBrokersInput>;
export type ReviewsQuery = QueryOf<typeof embedReviewsInput>;
export type BrokerSummary = EmbedReviews["broker"];
export type ReviewPage = EmbedReviews;
export type Review = EmbedReviews["reviews"][number];
export type CarrierQuote = z.infer<typeof quoteOfferSchema>;
export type QuoteResult = z.infer<typeof quoteSchema>;
export type Lead = z.infer<typeof leadSchema>;
export type { BrokerFacet, BrokerSort, ReviewSort };
