import { z } from "zod";
import { INSURANCE_LINES } from "../../domain/insuranceLines.ts";
import { normalizeNorthAmericanPhone } from "../../domain/phone.ts";
import { resolveQuoteLine, LINE_LABELS } from "../../domain/quotes/insuranceTypes.ts";
import { foldText } from "../../domain/text.ts";
import { brokerSlug } from "../brokers/getBroker.ts";
import { withoutControls } from "../../domain/plainText.ts";
import { objectExpected, requiredOr } from "../quotes/invalidInput.ts";
import { quoteId } from "../quotes/quoteSchemas.ts";

import { LEAD_SOURCES, LEAD_STATUSES, MAX_NOTES_LENGTH } from "./leadVocabulary.ts";

export { LEAD_SOURCES, LEAD_STATUSES, MAX_NOTES_LENGTH };

const linesByFoldedName = new Map(INSURANCE_LINES.map((line) => [foldText(line), line]));

/** A lead may be about any line the directory knows, quoted or not ("Commercial", "Pet"…). */
export const leadInsuranceType = z
  .string({ error: requiredOr(`must be text: one of ${INSURANCE_LINES.join(", ")}`) })
  .max(60, { error: `must be one of ${INSURANCE_LINES.join(", ")}` })
  .transform((value, ctx) => {
    const quoteLine = resolveQuoteLine(value);
    const label = quoteLine ? LINE_LABELS[quoteLine] : linesByFoldedName.get(foldText(value));
    if (!label) {
      ctx.addIssue({ code: "custom", message: `${JSON.stringify(value.slice(0, 60))} is not an insurance line we know. Use one of ${INSURANCE_LINES.join(", ")} (case-insensitive).` });
      return z.NEVER;
    }
    return label;
  })
  .describe(`Insurance line the person is interested in: ${INSURANCE_LINES.join(", ")} (case-insensitive)`);

const phone = z
  .string({ error: requiredOr("must be text: a North American phone number, e.g. (416) 555-0199") })
  .max(40, { error: "must be at most 40 characters: a North American phone number, e.g. (416) 555-0199" })
  .transform((value, ctx) => {
    const result = normalizeNorthAmericanPhone(value);
    if (!result.ok) {
      ctx.addIssue({ code: "custom", message: result.message });
      return z.NEVER;
    }
    return result.e164;
  })
  .describe("North American phone number in any common format: (416) 555-0199, 416.555.0199, +1 416 555 0199; stored as E.164 +14165550199");

/** Optional text: null and "" mean absent. */
export const optionalText = <T extends z.ZodType<string | undefined>>(schema: T) =>
  z.preprocess((value) => (value === null || (typeof value === "string" && value.trim() === "") ? undefined : value), schema.optional());

/** Free text kept with a lead (its notes, a note on a change): lines and tabs allowed, no other control characters. */
export const noteText = withoutControls(
  z.string({ error: "must be text" }).trim().max(MAX_NOTES_LENGTH, { error: `must be at most ${MAX_NOTES_LENGTH.toLocaleString("en-CA")} characters` }),
  "lines",
);

export const createLeadInput = z.strictObject({
  name: withoutControls(
    z
      .string({ error: requiredOr("must be text: the person's name") })
      .trim()
      .min(1, { error: "must not be empty: the person's name" })
      .max(200, { error: "must be at most 200 characters" }),
  ).describe("The person's name (one line, no control characters)"),
  email: z
    .string({ error: requiredOr("must be text: an email address such as name@example.com") })
    .trim()
    .max(254, { error: "must be at most 254 characters" })
    .pipe(z.email({ error: "must be a valid email address such as name@example.com" }))
    .describe("Email address"),
  phone,
  insuranceType: leadInsuranceType,
  notes: optionalText(noteText).describe(`Free text from the person, at most ${MAX_NOTES_LENGTH.toLocaleString("en-CA")} characters`),
  brokerSlug: optionalText(brokerSlug).describe("Slug of the published broker the person wants to hear from"),
  quoteId: optionalText(quoteId).describe("Id of a quote of this workspace the lead follows up"),
}, { error: objectExpected("a JSON object {name, email, phone, insuranceType, notes?, brokerSlug?, quoteId?}") });
export type CreateLeadInput = z.infer<typeof createLeadInput>;


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
