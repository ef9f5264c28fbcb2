import { said } from "./frenchMessages.ts";

/**
 * The wording of a field's failure, for zod `error` options: every schema says "is required"
 * and "must be …" the same way, so a caller reads one voice whichever procedure refused it.
 * Each message is declared with its French (said), read when a request asks for French.
 */

const IS_REQUIRED = said("is required", "est obligatoire");

/**
 * An `error` option for an object schema: says what object was expected instead of a bare type.
 * `whatFr` is the French of `what`.
 */
export const objectExpected = (what: string, whatFr: string) => {
  const required = said(`is required: ${what}`, `est obligatoire : ${whatFr}`);
  const wrong = said(`must be ${what}`, `doit être ${whatFr}`);
  return (issue: { code?: string; input?: unknown }) => (issue.code === "invalid_type" ? (issue.input === undefined ? required : wrong) : undefined);
};

/** "is required" when the field is absent, else the given complaint (zod `error` callback; declare the complaint with said). */
export const requiredOr = (complaint: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? IS_REQUIRED : complaint;

/** The refused value, quoted and cut short, to end a complaint with: ` (got "abc")`. */
export const got = (input: unknown) => ` (got ${JSON.stringify(input)?.slice(0, 40) ?? String(input)})`;

/** The French of got(): ` (reçu : "abc")`. */
export const gotFr = (input: unknown) => ` (reçu : ${JSON.stringify(input)?.slice(0, 40) ?? String(input)})`;

/** What got() puts before the value: where a declared message ends and the refused value begins. */
export const GOT_PREFIX = " (got ";
