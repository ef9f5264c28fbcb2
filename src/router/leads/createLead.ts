import { answerOnce, createOnce } from "../idempotency.ts";
import { scopedProcedure } from "../trpc.ts";
import { unknownSlugMessage, unknownSlugMessageFr } from "../brokers/publishedBroker.ts";
import { sourceOf } from "../quotes/createQuote.ts";
import { invalidInput, type InputProblem } from "../quotes/invalidInput.ts";
import { leadSchema } from "../../schemas/lead.ts";
import { createLeadInput } from "./createLead.schema.ts";
import { toLeadView } from "./leadView.ts";
import { deliverSoon, webhookEvent } from "../webhooks/webhookEvent.ts";

export { createLeadInput, leadSchema as createLeadOutput };

/**
 * Records a lead in the caller's workspace. A brokerSlug must name a published broker and a
 * quoteId a quote of the same workspace, else 422 on that field (the request is understood,
 * one of its values points at nothing the caller may link to).
 */
export const createLead = scopedProcedure("leads:write")
  .meta({ idempotent: true })
  .input(createLeadInput)
  .output(leadSchema)
  .mutation(({ ctx, input, path }) => createOnce(ctx, path, input, async (claim) => {
    const workspaceId = ctx.principal.workspaceId;
    const problems: InputProblem[] = [];
    if (input.brokerSlug !== undefined && !ctx.services.brokers.findBySlug(input.brokerSlug)) {
      problems.push({ path: ["brokerSlug"], message: unknownSlugMessage(input.brokerSlug), fr: unknownSlugMessageFr(input.brokerSlug) });
    }
    if (input.quoteId !== undefined && !(await ctx.services.quotes.find(input.quoteId, workspaceId))) {
      problems.push({
        path: ["quoteId"],
        message: `No quote with the id ${JSON.stringify(input.quoteId)} exists in this workspace.`,
        fr: `Aucune soumission de l’id ${JSON.stringify(input.quoteId)} n’existe dans cet espace de travail.`,
      });
    }
    if (problems.length > 0) throw invalidInput(problems);

    const createdAt = ctx.services.now();
    const lead = {
      // Time-ordered, as quote ids are (createQuote.ts): a random id put each new lead on a random
      // page of the leads' key, 15 µs of a lead's 38 in the store; the time it reveals is the
      // lead's createdAt, which only its workspace reads.
      id: `ld_${Bun.randomUUIDv7("hex", createdAt).replaceAll("-", "")}`,
      workspaceId,
      name: input.name,
      email: input.email,
      phone: input.phone,
      insuranceType: input.insuranceType,
      notes: input.notes ?? null,
      brokerSlug: input.brokerSlug ?? null,
      quoteId: input.quoteId ?? null,
      source: sourceOf(ctx.surface),
      status: "new",
      createdAt,
    };
    const view = toLeadView(lead);
    // Answered once the lead is committed, with its idempotency record and, for the endpoints
    // that want it, its lead.created event in the webhook outbox (delivered later, never waited for).
    return answerOnce(claim, view, async (record) => {
      const written = await ctx.services.leads.insert(lead, { record, event: webhookEvent(ctx, "lead.created", view, lead.createdAt) });
      deliverSoon(ctx, written.deliveries);
      return written.held;
    });
  }));
