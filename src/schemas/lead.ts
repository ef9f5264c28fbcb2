import { z } from "zod";
import { INSURANCE_LINES } from "../domain/insuranceLines.ts";
import { LEAD_SOURCES, LEAD_STATUSES, MAX_NOTES_LENGTH } from "../domain/leadVocabulary.ts";
import { LINE_LABELS, resolveQuoteLine } from "../domain/quotes/insuranceTypes.ts";
import { foldText } from "../domain/text.ts";
import { requiredOr } from "./fieldErrors.ts";
import { french, said } from "./frenchMessages.ts";
import { withoutControls } from "./plainText.ts";

/** A lead as every leads procedure shows it, and the fields several of them take. */
export const leadSchema = z.object({
  id: z.string().describe("Lead id, ld_…"),
  name: z.string(),
  email: z.string(),
  phone: z.string().describe("E.164, +1XXXXXXXXXX"),
  insuranceType: z.string(),
  notes: z.string().describe('What the person wrote; "" when nothing'),
  brokerSlug: z.string().nullable(),
  quoteId: z.string().nullable(),
  source: z.enum(LEAD_SOURCES).describe("Which API created it: rest (also tRPC), embed (widget) or mcp"),
  status: z.enum(LEAD_STATUSES).describe("new when created; then contacted, quoted, won or lost (see the lead's history)"),
  createdAt: z.string().describe("ISO 8601 UTC with milliseconds"),
});
export type LeadView = z.infer<typeof leadSchema>;

const linesByFoldedName = new Map(INSURANCE_LINES.map((line) => [foldText(line), line]));

/** A lead may be about any line the directory knows, quoted or not ("Commercial", "Pet"…). */
export const leadInsuranceType = z
  .string({ error: requiredOr(said(`must be text: one of ${INSURANCE_LINES.join(", ")}`, `doit être du texte : l’une des valeurs ${INSURANCE_LINES.join(", ")}`)) })
  .max(60, { error: said(`must be one of ${INSURANCE_LINES.join(", ")}`, `doit être l’une des valeurs ${INSURANCE_LINES.join(", ")}`) })
  .transform((value, ctx) => {
    const quoteLine = resolveQuoteLine(value);
    const label = quoteLine ? LINE_LABELS[quoteLine] : linesByFoldedName.get(foldText(value));
    if (!label) {
      const quoted = JSON.stringify(value.slice(0, 60));
      ctx.addIssue({
        code: "custom",
        message: `${quoted} is not an insurance line we know. Use one of ${INSURANCE_LINES.join(", ")} (case-insensitive).`,
        params: french(`${quoted} n’est pas un type d’assurance que nous connaissons. Utilisez l’un de ${INSURANCE_LINES.join(", ")} (sans égard à la casse).`),
      });
      return z.NEVER;
    }
    return label;
  })
  .describe(`Insurance line the person is interested in: ${INSURANCE_LINES.join(", ")} (case-insensitive)`);

/** Free text kept with a lead (its notes, a note on a change): lines and tabs allowed, no other control characters. */
export const noteText = withoutControls(
  z
    .string({ error: said("must be text", "doit être du texte") })
    .trim()
    .max(MAX_NOTES_LENGTH, { error: said(`must be at most ${MAX_NOTES_LENGTH.toLocaleString("en-CA")} characters`, `doit compter au plus ${MAX_NOTES_LENGTH.toLocaleString("fr-CA")} caractères`) }),
  "lines",
);
