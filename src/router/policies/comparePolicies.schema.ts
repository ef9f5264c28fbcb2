import { z } from "zod";
import { quoteId } from "../../schemas/quote.ts";
import { objectExpected, requiredOr } from "../../schemas/fieldErrors.ts";

const MAX_PREMIUM = 10_000_000;

const carrier = z
  .string({ error: requiredOr("must be text: the carrier's name or slug") })
  .trim()
  .min(1, { error: "must not be empty" })
  .max(100, { error: "must be at most 100 characters" });

const premium = (what: string) =>
  z
    .number({ error: `must be a number of dollars (${what})` })
    .min(0, { error: `must not be negative (${what})` })
    .max(MAX_PREMIUM, { error: `must be at most ${MAX_PREMIUM.toLocaleString("en-CA")} dollars (${what})` })
    .multipleOf(0.01, { error: `must be in dollars and cents, at most two decimals (${what})` });

/**
 * A policy to compare: either an offer of a stored quote `{quoteId, carrier}`, or a policy
 * described inline. One object with optional fields (rather than a union) so that a mistake
 * is reported on the field at fault, e.g. `policyB.deductible: is required`.
 */
export const policyInput = z
  .strictObject({
    quoteId: quoteId.optional().describe("A quote of this workspace; then only carrier may accompany it"),
    carrier: carrier.describe("Carrier name or slug (with quoteId: one of that quote's offers)"),
    monthlyPremium: premium("monthly premium").optional().describe("Inline only: dollars a month"),
    annualPremium: premium("annual premium").optional().describe("Inline only: dollars a year (give one premium or both)"),
    coverage: z.string({ error: "must be text" }).max(500, { error: "must be at most 500 characters" }).optional().describe("Inline only: what it covers, comma-separated"),
    deductible: z
      .number({ error: "must be a number of dollars" })
      .min(0, { error: "must not be negative" })
      .max(1_000_000, { error: "must be at most 1,000,000 dollars" })
      .optional()
      .describe("Inline only: deductible in dollars"),
  }, { error: objectExpected("an object: {quoteId, carrier} for a quoted offer, or {carrier, annualPremium and/or monthlyPremium, coverage, deductible}") })
  .superRefine((policy, ctx) => {
    const inlineFields = (["monthlyPremium", "annualPremium", "coverage", "deductible"] as const).filter((f) => policy[f] !== undefined);
    if (policy.quoteId !== undefined) {
      for (const f of inlineFields) ctx.addIssue({ code: "custom", path: [f], message: "must not be given with quoteId: the quote's offer supplies it" });
      return;
    }
    if (policy.monthlyPremium === undefined && policy.annualPremium === undefined) {
      ctx.addIssue({ code: "custom", path: ["annualPremium"], message: "is required for an inline policy (or give monthlyPremium), unless you give a quoteId" });
    }
    if (policy.coverage === undefined) ctx.addIssue({ code: "custom", path: ["coverage"], message: "is required for an inline policy, unless you give a quoteId" });
    if (policy.deductible === undefined) ctx.addIssue({ code: "custom", path: ["deductible"], message: "is required for an inline policy, unless you give a quoteId" });
  });
export type PolicyInput = z.infer<typeof policyInput>;

export const policySide = z.object({
  carrier: z.string(),
  carrierSlug: z.string().nullable().describe("For an offer of a stored quote"),
  quoteId: z.string().nullable(),
  annualPremium: z.number(),
  monthlyPremium: z.number(),
  coverage: z.string(),
  deductible: z.number(),
});
