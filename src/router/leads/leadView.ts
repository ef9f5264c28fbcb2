import type { StoredLead } from "../../storage/stores/leadStore.ts";
import type { LeadView } from "../../schemas/lead.ts";

export function toLeadView(lead: StoredLead): LeadView {
  return {
    id: lead.id,
    name: lead.name,
    email: lead.email,
    phone: lead.phone,
    insuranceType: lead.insuranceType,
    // Spec 2.7 types every lead field as a string: no notes reads as "".
    notes: lead.notes ?? "",
    brokerSlug: lead.brokerSlug,
    quoteId: lead.quoteId,
    source: lead.source as LeadView["source"],
    status: lead.status as LeadView["status"],
    createdAt: new Date(lead.createdAt).toISOString(),
  };
}
