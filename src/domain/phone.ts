/**
 * North American (NANP, +1) phone numbers in the forms people type — "(416) 555-0199",
 * "416.555.0199", "+1 416 555 0199", "1-416-555-0199", "4165550199" — to E.164 "+14165550199".
 */
export type PhoneResult = { ok: true; e164: string } | { ok: false; message: string; fr: string };

// Digits with the usual separators; an optional + only in front.
const TYPED_SHAPE = /^\+?[\d\s().-]+$/;
// Area code and exchange both start with 2-9 (NANP numbering plan).
const NANP = /^([2-9]\d{2})([2-9]\d{2})(\d{4})$/;

const EXAMPLE = "e.g. (416) 555-0199 or +1 416 555 0199";
const EXAMPLE_FR = "p. ex. (416) 555-0199 ou +1 416 555 0199";

export function normalizeNorthAmericanPhone(input: string): PhoneResult {
  const text = input.trim();
  if (text === "") return { ok: false, message: `is required: a North American phone number, ${EXAMPLE}`, fr: `est obligatoire : un numéro de téléphone nord-américain, ${EXAMPLE_FR}` };
  if (/[a-z]/i.test(text)) {
    return { ok: false, message: `must be digits only (no letters or extensions), ${EXAMPLE}`, fr: `ne doit contenir que des chiffres (ni lettres ni poste), ${EXAMPLE_FR}` };
  }
  if (!TYPED_SHAPE.test(text)) {
    return { ok: false, message: `must be a North American phone number with digits, spaces, dots, dashes or parentheses, ${EXAMPLE}`, fr: `doit être un numéro de téléphone nord-américain fait de chiffres, d’espaces, de points, de tirets ou de parenthèses, ${EXAMPLE_FR}` };
  }
  let digits = text.replace(/\D/g, "");
  if (text.startsWith("+") && !digits.startsWith("1")) {
    return { ok: false, message: `must be a North American number (+1); international numbers are not accepted, ${EXAMPLE}`, fr: `doit être un numéro nord-américain (+1) ; les numéros internationaux ne sont pas acceptés, ${EXAMPLE_FR}` };
  }
  if (digits.length === 11 && digits.startsWith("1")) digits = digits.slice(1);
  if (digits.length !== 10) {
    return { ok: false, message: `must have 10 digits (area code and number), optionally preceded by 1 or +1, ${EXAMPLE}`, fr: `doit avoir 10 chiffres (indicatif régional et numéro), précédés ou non de 1 ou +1, ${EXAMPLE_FR}` };
  }
  const parts = NANP.exec(digits);
  if (!parts) {
    return { ok: false, message: `is not a valid North American number: the area code and the exchange cannot start with 0 or 1, ${EXAMPLE}`, fr: `n’est pas un numéro nord-américain valide : l’indicatif régional et le central ne peuvent pas commencer par 0 ou 1, ${EXAMPLE_FR}` };
  }
  if (parts[1]!.endsWith("11")) {
    return { ok: false, message: `has a service code (${parts[1]}) where the area code should be, ${EXAMPLE}`, fr: `a un code de service (${parts[1]}) à la place de l’indicatif régional, ${EXAMPLE_FR}` };
  }
  return { ok: true, e164: `+1${digits}` };
}

const STORED_NANP = /^\+1([2-9]\d{2})([2-9]\d{2})(\d{4})$/;

/**
 * A stored phone (E.164) as people in Canada write it: "+14165550123" → "(416) 555-0123". Any
 * other text (a foreign number, one stored before numbers were normalised) is shown as it is:
 * rewriting what we cannot read would hide the number a broker has to dial.
 */
export function formatCanadianPhone(stored: string): string {
  const parts = STORED_NANP.exec(stored);
  return parts ? `(${parts[1]}) ${parts[2]}-${parts[3]}` : stored;
}
