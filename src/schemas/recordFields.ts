import { z } from "zod";
import { MAX_SLUG_LENGTH } from "../domain/brokerSlug.ts";
import { INSURANCE_LINES } from "../domain/insuranceLines.ts";
import { languageName } from "../domain/languages.ts";
import { normalizeNorthAmericanPhone } from "../domain/phone.ts";
import { POSTAL_CODE_FORMAT_MESSAGE, POSTAL_CODE_FORMAT_MESSAGE_FR, normalizePostalCode } from "../domain/postalCode.ts";
import { resolveProvince, unknownProvinceMessage, unknownProvinceMessageFr } from "../domain/provinces.ts";
import { TEAM_SIZES } from "../domain/teamSize.ts";
import { foldText } from "../domain/text.ts";
import { got, gotFr, requiredOr } from "./fieldErrors.ts";
import { french, said } from "./frenchMessages.ts";
import { withoutControls } from "./plainText.ts";

/**
 * The fields of a broker or a review as a directory file (or, later, the write API) gives them:
 * each says what it takes in the directory's voice ("is required", "must be …", and the value
 * it refused). Absent fields are `undefined`: callers turn null and empty cells into that.
 */

const MUST_BE_TEXT = said("must be text", "doit être du texte");
const atMostCharacters = (max: number) => said(`must be at most ${max.toLocaleString("en-CA")} characters`, `doit compter au plus ${max.toLocaleString("fr-CA")} caractères`);

/** One line of text, trimmed, required. */
export const lineText = (max: number) =>
  withoutControls(
    z
      .string({ error: requiredOr(MUST_BE_TEXT) })
      .trim()
      .min(1, { error: said("is required", "est obligatoire") })
      .max(max, { error: atMostCharacters(max) }),
  );

/** Text that may hold line breaks and tabs (a description, a review), trimmed. */
export const freeText = (max: number) =>
  withoutControls(
    z
      .string({ error: requiredOr(MUST_BE_TEXT) })
      .trim()
      .max(max, { error: atMostCharacters(max) }),
    "lines",
  );

/** An optional field: absent becomes null, so a stored record says "none" rather than keeping an old value. */
export const orNull = <T extends z.ZodType>(schema: T) => schema.optional().transform((value) => value ?? null);

const TRUE_OR_FALSE = said("must be true or false", "doit être true ou false");
export const booleanField = z.boolean({ error: (issue) => TRUE_OR_FALSE + got(issue.input) });

export const wholeNumber = (min: number, max: number) => {
  const words = said(`must be a whole number from ${min} to ${max}`, `doit être un nombre entier de ${min} à ${max}`);
  const complaint = (issue: { input?: unknown }) => words + got(issue.input);
  return z.number({ error: complaint }).int({ error: complaint }).min(min, { error: complaint }).max(max, { error: complaint });
};

/** `whatFr`: the French of `what`. */
export const decimal = (min: number, max: number, what: string, whatFr: string) => {
  const words = said(`must be a number from ${min} to ${max} (${what})`, `doit être un nombre de ${min} à ${max} (${whatFr})`);
  const complaint = (issue: { input?: unknown }) => words + got(issue.input);
  return z.number({ error: complaint }).min(min, { error: complaint }).max(max, { error: complaint });
};

/** The operator's own key for a record (a CRM id): kept exactly, one line. */
export const externalId = lineText(200);

// Lower-case letters and digits in runs joined by single hyphens: no ambiguity, linear.
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const SLUG_FORMAT = said(
  "must be a slug like maple-leaf-insurance (lower-case letters and digits joined by single hyphens)",
  "doit être un slug comme maple-leaf-insurance (lettres minuscules et chiffres joints par des traits d’union simples)",
);
export const slugField = lineText(MAX_SLUG_LENGTH).refine((slug) => SLUG.test(slug), {
  error: (issue) => SLUG_FORMAT + got(issue.input),
});

const EMAIL_FORMAT = said("must be an e-mail address like info@example.ca", "doit être une adresse courriel comme info@example.ca");
export const emailField = z
  .string({ error: said("must be text: an e-mail address", "doit être du texte : une adresse courriel") })
  .trim()
  .max(254, { error: said("must be at most 254 characters", "doit compter au plus 254 caractères") })
  .pipe(z.email({ error: (issue) => EMAIL_FORMAT + got(issue.input) }));

export const phoneField = z.string({ error: said("must be text: a phone number", "doit être du texte : un numéro de téléphone") }).transform((text, ctx) => {
  const phone = normalizeNorthAmericanPhone(text);
  if (phone.ok) return phone.e164;
  ctx.addIssue({ code: "custom", message: `${phone.message}${got(text)}`, params: french(`${phone.fr}${gotFr(text)}`) });
  return z.NEVER;
});

const WEBSITE_FORMAT = said("must be a web address starting with https:// or http://", "doit être une adresse web commençant par https:// ou http://");
export const websiteField = z
  .string({ error: said("must be text: a web address", "doit être du texte : une adresse web") })
  .trim()
  .max(500, { error: said("must be at most 500 characters", "doit compter au plus 500 caractères") })
  .refine((text) => URL.canParse(text) && /^https?:$/.test(new URL(text).protocol), {
    error: (issue) => WEBSITE_FORMAT + got(issue.input),
  });

const TEAM_SIZE_WORDS = said(`must be one of ${TEAM_SIZES.join(", ")}`, `doit être l’une des valeurs ${TEAM_SIZES.join(", ")}`);
export const teamSizeField = z.enum(TEAM_SIZES, { error: (issue) => TEAM_SIZE_WORDS + got(issue.input) });

const currentYear = new Date().getUTCFullYear();
export const foundingYearField = wholeNumber(1800, currentYear);

/** A list of short labels: each trimmed and mapped by `name`, blanks and repeats dropped. */
const labelList = (max: number, name: (label: string, ctx: z.RefinementCtx) => string | undefined) =>
  z
    .array(lineText(100), { error: said("must be a list of text", "doit être une liste de textes") })
    .max(max, { error: said(`must have at most ${max} entries`, `doit compter au plus ${max} éléments`) })
    .transform((labels, ctx) => {
      const named = labels.map((label) => name(label, ctx));
      return [...new Set(named.filter((label): label is string => label !== undefined))];
    });

const lineByFoldedName = new Map(INSURANCE_LINES.map((line) => [foldText(line), line]));
export const insuranceLinesField = labelList(INSURANCE_LINES.length, (label, ctx) => {
  const line = lineByFoldedName.get(foldText(label));
  if (!line) {
    ctx.addIssue({
      code: "custom",
      message: `"${label.slice(0, 60)}" is not an insurance line we know: use ${INSURANCE_LINES.join(", ")} (case-insensitive)`,
      params: french(`« ${label.slice(0, 60)} » n’est pas un type d’assurance que nous connaissons : utilisez ${INSURANCE_LINES.join(", ")} (sans égard à la casse)`),
    });
  }
  return line;
});
export const specialtiesField = labelList(30, (label) => label);
/** Known languages by the name the directory stores (fr, Français → French); others as written. */
export const languagesField = labelList(30, (label) => languageName(label));

export const provinceField = z.string({ error: requiredOr(said("must be text: a province or territory", "doit être du texte : une province ou un territoire")) }).transform((text, ctx) => {
  const code = resolveProvince(text);
  if (code) return code;
  if (text.trim() === "") ctx.addIssue({ code: "custom", message: said("is required", "est obligatoire") });
  else ctx.addIssue({ code: "custom", message: unknownProvinceMessage(text), params: french(unknownProvinceMessageFr(text)) });
  return z.NEVER;
});

export const postalCodeField = z.string({ error: requiredOr(said("must be text: a postal code", "doit être du texte : un code postal")) }).transform((text, ctx) => {
  const postalCode = normalizePostalCode(text);
  if (postalCode) return postalCode;
  ctx.addIssue({ code: "custom", message: `${POSTAL_CODE_FORMAT_MESSAGE}${got(text)}`, params: french(`${POSTAL_CODE_FORMAT_MESSAGE_FR}${gotFr(text)}`) });
  return z.NEVER;
});

// Date, or date and time with seconds optional, fraction optional and a zone (Z or ±hh:mm).
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2}))?$/;
const TIMESTAMP_FORMAT = said(
  "must be an ISO 8601 date or time with its zone, e.g. 2025-03-04T17:22:05Z or 2025-03-04",
  "doit être une date ou une heure ISO 8601 avec son fuseau, p. ex. 2025-03-04T17:22:05Z ou 2025-03-04",
);
const NOT_FUTURE = said("must not be in the future", "ne doit pas être dans le futur");
/** Allowance for a clock a little ahead of ours: a time after now plus this is refused as future. */
const FUTURE_SLACK_MS = 24 * 3600 * 1000;

/** The time in ms, or NaN unless every part is in range (Date.parse takes February 30th as March 2nd). */
function parseTimestamp(text: string): number {
  const parts = TIMESTAMP.exec(text);
  if (!parts) return Number.NaN;
  const [year, month, day, hour = 0, minute = 0, second = 0] = parts.slice(1).map((part) => (part === undefined ? undefined : Number(part)));
  const date = new Date(Date.UTC(year!, month! - 1, day!));
  const calendar = date.getUTCMonth() === month! - 1 && date.getUTCDate() === day!;
  return calendar && hour <= 23 && minute <= 59 && second <= 59 ? Date.parse(text) : Number.NaN;
}

/** A moment in the past, normalised to UTC with milliseconds (2025-03-04T17:22:05.000Z). */
export const pastTimestampField = z.string({ error: requiredOr(TIMESTAMP_FORMAT) }).transform((text, ctx) => {
  const time = parseTimestamp(text.trim());
  if (Number.isNaN(time)) ctx.addIssue({ code: "custom", message: TIMESTAMP_FORMAT + got(text) });
  else if (time > Date.now() + FUTURE_SLACK_MS) ctx.addIssue({ code: "custom", message: NOT_FUTURE + got(text) });
  else return new Date(time).toISOString();
  return z.NEVER;
});
