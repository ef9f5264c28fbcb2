/**
 * Shapes of the embed API answers, taken from the server's own zod schemas. `import type`
 * is erased by the bundler: the widget gets the types and not one byte of zod or the server.
 */
import type { z } from "zod";
import type { embedBrokerSchema } from "../src/router/embed/embedBrokers.ts";
import type { embedReviewsOutput } from "../src/router/embed/embedReviews.ts";
import type { leadSchema } from "../src/router/leads/leadSchemas.ts";
import type { quoteOfferSchema, quoteSchema } from "../src/router/quotes/quoteSchemas.ts";

type EmbedReviews = z.infer<typeof embedReviewsOutput>;

export type BrokerCard = z.infer<typeof embedBrokerSchema>;
export type BrokerSummary = EmbedReviews["broker"];
export type Review = EmbedReviews["reviews"][number];
export type CarrierQuote = z.infer<typeof quoteOfferSchema>;
export type QuoteResult = z.infer<typeof quoteSchema>;
export type Lead = z.infer<typeof leadSchema>;
