import { CodedError } from "../../schemas/errorCodes.ts";
import { z } from "zod";
import { differencesOf, summarize, type ComparablePolicy } from "../../domain/policyComparison.ts";
import { centsToDollars, dollarsToCents, monthlyCentsOf } from "../../domain/rating/money.ts";
import { foldText, slugify } from "../../domain/text.ts";
import type { Context } from "../trpc.ts";
import { scopedProcedure } from "../trpc.ts";
import { objectExpected } from "../../schemas/fieldErrors.ts";
import { invalidInput } from "../quotes/invalidInput.ts";
import { policySide, policyInput, type PolicyInput } from "./comparePolicies.schema.ts";

export const comparePoliciesInput = z.strictObject({
  policyA: policyInput.describe("The first policy: {quoteId, carrier} from a stored quote, or inline figures"),
  policyB: policyInput.describe("The second policy, in either form"),
}, { error: objectExpected("a JSON object {policyA, policyB}", "un objet JSON {policyA, policyB}") });

const dollars = (cents: number) => centsToDollars(cents);

export const comparePoliciesOutput = z.object({
  policyA: policySide,
  policyB: policySide,
  differences: z.object({
    annualPremium: z.number().describe("B minus A, dollars: positive when B costs more"),
    monthlyPremium: z.number().describe("B minus A, dollars"),
    deductible: z.number().describe("B minus A, dollars: positive when B's deductible is higher"),
    cheaper: z.enum(["policyA", "policyB", "same"]).describe("Which costs less a year"),
    coverage: z.object({
      onlyInA: z.array(z.string()),
      onlyInB: z.array(z.string()),
      inBoth: z.array(z.string()),
    }),
  }),
  summary: z.string().describe("One plain-language sentence"),
});

/** Two policies side by side, with their differences and a one-line summary. */
export const comparePolicies = scopedProcedure("quotes:write")
  .input(comparePoliciesInput)
  .output(comparePoliciesOutput)
  .mutation(async ({ ctx, input }) => {
    // Both looked up at once, but a refusal always names policyA first when both fail (the
    // order the caller wrote them), whichever lookup a network database answers first.
    const [settledA, settledB] = await Promise.allSettled([resolvePolicy(ctx, input.policyA, "policyA"), resolvePolicy(ctx, input.policyB, "policyB")]);
    if (settledA.status === "rejected") throw settledA.reason;
    if (settledB.status === "rejected") throw settledB.reason;
    const [a, b] = [settledA.value, settledB.value];
    const d = differencesOf(a.policy, b.policy);
    return {
      policyA: a.view,
      policyB: b.view,
      differences: {
        annualPremium: dollars(d.annualCents),
        monthlyPremium: dollars(d.monthlyCents),
        deductible: d.deductible,
        cheaper: d.cheaper === "same" ? "same" : d.cheaper === "A" ? "policyA" : "policyB",
        coverage: d.coverage,
      },
      summary: summarize(a.policy, b.policy, d),
    };
  });

type Side = z.infer<typeof policySide>;

async function resolvePolicy(
  ctx: Context & { principal: NonNullable<Context["principal"]> },
  input: PolicyInput,
  field: "policyA" | "policyB",
): Promise<{ policy: ComparablePolicy; view: Side }> {
  if (input.quoteId !== undefined) {
    const quote = await ctx.services.quotes.find(input.quoteId, ctx.principal.workspaceId);
    if (!quote) {
      throw new CodedError("quote_not_found", `${field}: no quote with the id ${JSON.stringify(input.quoteId)} exists in this workspace.`);
    }
    const wanted = foldText(input.carrier);
    const offer = quote.offers.find((o) => o.carrierSlug === slugify(input.carrier) || foldText(o.carrierName) === wanted);
    if (!offer) {
      throw invalidInput([{
        path: [field, "carrier"],
        message: `Quote ${quote.id} has no offer from ${JSON.stringify(input.carrier.slice(0, 100))}; its carriers are ${quote.offers.map((o) => `${o.carrierName} (${o.carrierSlug})`).join(", ")}.`,
        fr: `La soumission ${quote.id} n’a pas d’offre de ${JSON.stringify(input.carrier.slice(0, 100))} ; ses assureurs sont ${quote.offers.map((o) => `${o.carrierName} (${o.carrierSlug})`).join(", ")}.`,
      }]);
    }
    const policy = { carrier: offer.carrierName, annualCents: offer.annualCents, monthlyCents: offer.monthlyCents, coverage: offer.coverage, deductible: offer.deductible };
    return { policy, view: { ...viewOf(policy), carrierSlug: offer.carrierSlug, quoteId: quote.id } };
  }
  // The schema guarantees an inline policy has coverage, a deductible and at least one premium.
  // One premium is enough: the other follows by the quote engine's rule (monthly = annual / 12).
  const annualCents = input.annualPremium !== undefined ? dollarsToCents(input.annualPremium) : dollarsToCents((input.monthlyPremium ?? 0) * 12);
  const monthlyCents = input.monthlyPremium !== undefined ? dollarsToCents(input.monthlyPremium) : monthlyCentsOf(annualCents);
  const policy = { carrier: input.carrier, annualCents, monthlyCents, coverage: input.coverage ?? "", deductible: input.deductible ?? 0 };
  return { policy, view: { ...viewOf(policy), carrierSlug: null, quoteId: null } };
}

function viewOf(p: ComparablePolicy) {
  return { carrier: p.carrier, annualPremium: dollars(p.annualCents), monthlyPremium: dollars(p.monthlyCents), coverage: p.coverage, deductible: p.deductible };
}
