import { z } from "zod";
import type { LeadFilter } from "../../storage/stores/leadStore.ts";
import { LEAD_SOURCES, LEAD_STATUSES } from "../../domain/leadVocabulary.ts";
import { leadInsuranceType } from "../../schemas/lead.ts";
import { optionalText } from "../../schemas/plainText.ts";
import { said } from "../../schemas/frenchMessages.ts";

/** The inbox filters, shared by the list and the CSV export; empty values mean "any". */
export const leadFilterInput = {
  status: optionalText(z.enum(LEAD_STATUSES, { error: said(`must be one of ${LEAD_STATUSES.join(", ")}`, `doit être l’une des valeurs ${LEAD_STATUSES.join(", ")}`) })).describe(
    `Only leads in this status: ${LEAD_STATUSES.join(", ")}`,
  ),
  insuranceType: optionalText(leadInsuranceType).describe("Only leads about this insurance line"),
  source: optionalText(z.enum(LEAD_SOURCES, { error: said(`must be one of ${LEAD_SOURCES.join(", ")}`, `doit être l’une des valeurs ${LEAD_SOURCES.join(", ")}`) })).describe(
    "Only leads that came through rest, embed (the widget) or mcp",
  ),
  q: optionalText(z.string({ error: said("must be text", "doit être du texte") }).trim().max(100, { error: said("must be at most 100 characters", "doit compter au plus 100 caractères") })).describe(
    "Text found in the name or the e-mail (case-insensitive)",
  ),
};

export function toLeadFilter(input: { status?: string; insuranceType?: string; source?: string; q?: string }): LeadFilter {
  return { status: input.status, insuranceType: input.insuranceType, source: input.source, search: input.q };
}
