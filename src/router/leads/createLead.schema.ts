import { z } from "zod";
import { MAX_NOTES_LENGTH } from "../../domain/leadVocabulary.ts";
import { normalizeNorthAmericanPhone } from "../../domain/phone.ts";
import { brokerSlug } from "../../schemas/broker.ts";
import { objectExpected, requiredOr } from "../../schemas/fieldErrors.ts";
import { leadInsuranceType, noteText } from "../../schemas/lead.ts";
import { optionalText, withoutControls } from "../../schemas/plainText.ts";
import { quoteId } from "../../schemas/quote.ts";
import { french, said } from "../../schemas/frenchMessages.ts";

const phone = z
  .string({ error: requiredOr(said("must be text: a North American phone number, e.g. (416) 555-0199", "doit être du texte : un numéro de téléphone nord-américain, p. ex. (416) 555-0199")) })
  .max(40, { error: said("must be at most 40 characters: a North American phone number, e.g. (416) 555-0199", "doit compter au plus 40 caractères : un numéro de téléphone nord-américain, p. ex. (416) 555-0199") })
  .transform((value, ctx) => {
    const result = normalizeNorthAmericanPhone(value);
    if (!result.ok) {
      ctx.addIssue({ code: "custom", message: result.message, params: french(result.fr) });
      return z.NEVER;
    }
    return result.e164;
  })
  .describe("North American phone number in any common format: (416) 555-0199, 416.555.0199, +1 416 555 0199; stored as E.164 +14165550199");

export const createLeadInput = z.strictObject({
  name: withoutControls(
    z
      .string({ error: requiredOr(said("must be text: the person's name", "doit être du texte : le nom de la personne")) })
      .trim()
      .min(1, { error: said("must not be empty: the person's name", "ne doit pas être vide : le nom de la personne") })
      .max(200, { error: said("must be at most 200 characters", "doit compter au plus 200 caractères") }),
  ).describe("The person's name (one line, no control characters)"),
  email: z
    .string({ error: requiredOr(said("must be text: an email address such as name@example.com", "doit être du texte : une adresse courriel comme name@example.com")) })
    .trim()
    .max(254, { error: said("must be at most 254 characters", "doit compter au plus 254 caractères") })
    .pipe(z.email({ error: said("must be a valid email address such as name@example.com", "doit être une adresse courriel valide comme name@example.com") }))
    .describe("Email address"),
  phone,
  insuranceType: leadInsuranceType,
  notes: optionalText(noteText).describe(`Free text from the person, at most ${MAX_NOTES_LENGTH.toLocaleString("en-CA")} characters`),
  brokerSlug: optionalText(brokerSlug).describe("Slug of the published broker the person wants to hear from"),
  quoteId: optionalText(quoteId).describe("Id of a quote of this workspace the lead follows up"),
}, { error: objectExpected("a JSON object {name, email, phone, insuranceType, notes?, brokerSlug?, quoteId?}", "un objet JSON {name, email, phone, insuranceType, notes?, brokerSlug?, quoteId?}") });
export type CreateLeadInput = z.infer<typeof createLeadInput>;
