import { z } from "zod";
import { quoteId } from "../../schemas/quote.ts";
import { objectExpected, requiredOr } from "../../schemas/fieldErrors.ts";
import { said } from "../../schemas/frenchMessages.ts";

const MAX_PREMIUM = 10_000_000;

const carrier = z
  .string({ error: requiredOr(said("must be text: the carrier's name or slug", "doit être du texte : le nom ou le slug de l’assureur")) })
  .trim()
  .min(1, { error: said("must not be empty", "ne doit pas être vide") })
  .max(100, { error: said("must be at most 100 characters", "doit compter au plus 100 caractères") });

/** `whatFr`: the French of `what`. */
const premium = (what: string, whatFr: string) =>
  z
    .number({ error: said(`must be a number of dollars (${what})`, `doit être un montant en dollars (${whatFr})`) })
    .min(0, { error: said(`must not be negative (${what})`, `ne doit pas être négatif (${whatFr})`) })
    .max(MAX_PREMIUM, { error: said(`must be at most ${MAX_PREMIUM.toLocaleString("en-CA")} dollars (${what})`, `doit être d’au plus ${MAX_PREMIUM.toLocaleString("fr-CA")} dollars (${whatFr})`) })
    .multipleOf(0.01, { error: said(`must be in dollars and cents, at most two decimals (${what})`, `doit être en dollars et en cents, avec au plus deux décimales (${whatFr})`) });

/**
 * A policy to compare: either an offer of a stored quote `{quoteId, carrier}`, or a policy
 * described inline. One object with optional fields (rather than a union) so that a mistake
 * is reported on the field at fault, e.g. `policyB.deductible: is required`.
 */
export const policyInput = z
  .strictObject({
    quoteId: quoteId.optional().describe("A quote of this workspace; then only carrier may accompany it"),
    carrier: carrier.describe("Carrier name or slug (with quoteId: one of that quote's offers)"),
    monthlyPremium: premium("monthly premium", "prime mensuelle").optional().describe("Inline only: dollars a month"),
    annualPremium: premium("annual premium", "prime annuelle").optional().describe("Inline only: dollars a year (give one premium or both)"),
    coverage: z.string({ error: said("must be text", "doit être du texte") }).max(500, { error: said("must be at most 500 characters", "doit compter au plus 500 caractères") }).optional().describe("Inline only: what it covers, comma-separated"),
    deductible: z
      .number({ error: said("must be a number of dollars", "doit être un montant en dollars") })
      .min(0, { error: said("must not be negative", "ne doit pas être négatif") })
      .max(1_000_000, { error: said("must be at most 1,000,000 dollars", "doit être d’au plus 1 000 000 dollars") })
      .optional()
      .describe("Inline only: deductible in dollars"),
  }, { error: objectExpected(
      "an object: {quoteId, carrier} for a quoted offer, or {carrier, annualPremium and/or monthlyPremium, coverage, deductible}",
      "un objet : {quoteId, carrier} pour une offre soumise, ou {carrier, annualPremium et/ou monthlyPremium, coverage, deductible}",
    ) })
  .superRefine((policy, ctx) => {
    const inlineFields = (["monthlyPremium", "annualPremium", "coverage", "deductible"] as const).filter((f) => policy[f] !== undefined);
    if (policy.quoteId !== undefined) {
      for (const f of inlineFields) ctx.addIssue({ code: "custom", path: [f], message: said("must not be given with quoteId: the quote's offer supplies it", "ne doit pas être donné avec quoteId : l’offre de la soumission le fournit") });
      return;
    }
    if (policy.monthlyPremium === undefined && policy.annualPremium === undefined) {
      ctx.addIssue({ code: "custom", path: ["annualPremium"], message: said("is required for an inline policy (or give monthlyPremium), unless you give a quoteId", "est obligatoire pour une police décrite en ligne (ou donnez monthlyPremium), sauf si vous donnez un quoteId") });
    }
    if (policy.coverage === undefined) ctx.addIssue({ code: "custom", path: ["coverage"], message: said("is required for an inline policy, unless you give a quoteId", "est obligatoire pour une police décrite en ligne, sauf si vous donnez un quoteId") });
    if (policy.deductible === undefined) ctx.addIssue({ code: "custom", path: ["deductible"], message: said("is required for an inline policy, unless you give a quoteId", "est obligatoire pour une police décrite en ligne, sauf si vous donnez un quoteId") });
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
