import { CodedError } from "../../schemas/errorCodes.ts";
import { z } from "zod";
import type { Services } from "../../services.ts";
import { quoteSchema } from "../../schemas/quote.ts";
import { toQuoteView } from "../quotes/quoteView.ts";
import { LEAD_STATUSES } from "../../domain/leadVocabulary.ts";
import { idText } from "../../schemas/idText.ts";
import { leadSchema } from "../../schemas/lead.ts";
import { toLeadView } from "./leadView.ts";
import { said } from "../../schemas/frenchMessages.ts";

export const leadId = idText(said("is required: a lead id such as ld_3f2a…", "est obligatoire : un id de demande comme ld_3f2a…")).describe("The lead's id, ld_…");

export const leadEventSchema = z.object({
  status: z.enum(LEAD_STATUSES),
  note: z.string().nullable(),
  actor: z.string().describe("Who: console, the id of the API key, or for the first entry the door the lead came through"),
  at: z.string().describe("ISO 8601 UTC with milliseconds"),
});

export const leadDetailSchema = leadSchema.extend({
  history: z.array(leadEventSchema).describe("Oldest first; entries are only ever added, never changed"),
  quote: quoteSchema.nullable().describe("The quote the lead follows up, with its offers"),
  broker: z
    .object({ slug: z.string(), name: z.string(), email: z.string().nullable(), phone: z.string().nullable(), website: z.string().nullable() })
    .nullable()
    .describe("The broker the person asked for, while published"),
});
export type LeadDetail = z.infer<typeof leadDetailSchema>;

/** The stored lead of the workspace; another workspace's lead, or none, is NOT_FOUND. */
export async function workspaceLead(services: Services, id: string, workspaceId: string) {
  const lead = await services.leads.find(id, workspaceId);
  if (!lead) throw new CodedError("lead_not_found", `No lead with the id ${JSON.stringify(id)} exists in this workspace.`);
  return lead;
}

/** A lead of the workspace with everything it carries; another workspace's lead is not found. */
export async function leadDetail(services: Services, id: string, workspaceId: string): Promise<LeadDetail> {
  const lead = await workspaceLead(services, id, workspaceId);
  const [quote, events] = await Promise.all([lead.quoteId ? services.quotes.find(lead.quoteId, workspaceId) : undefined, services.leads.events(lead.id)]);
  const broker = lead.brokerSlug ? services.brokers.findBySlug(lead.brokerSlug) : undefined;
  const created = { status: "new" as const, note: null, actor: lead.source, at: new Date(lead.createdAt).toISOString() };
  return {
    ...toLeadView(lead),
    history: [
      created,
      ...events.map((e) => ({
        status: e.status as LeadDetail["status"],
        note: e.note,
        actor: e.actor,
        at: new Date(e.createdAt).toISOString(),
      })),
    ],
    quote: quote ? toQuoteView(quote, services.now()) : null,
    broker: broker ? { slug: broker.slug, name: broker.name, email: broker.email, phone: broker.phone, website: broker.website } : null,
  };
}
