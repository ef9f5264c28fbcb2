/**
 * The wording of a field's failure, for zod `error` options: every schema says "is required"
 * and "must be …" the same way, so a caller reads one voice whichever procedure refused it.
 */

/** An `error` option for an object schema: says what object was expected instead of a bare type. */
export const objectExpected = (what: string) => (issue: { code?: string; input?: unknown }) =>
  issue.code === "invalid_type" ? (issue.input === undefined ? `is required: ${what}` : `must be ${what}`) : undefined;

/** "is required" when the field is absent, else the given complaint (zod `error` callback). */
export const requiredOr = (complaint: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? "is required" : complaint;

/** The refused value, quoted and cut short, to end a complaint with: ` (got "abc")`. */
export const got = (input: unknown) => ` (got ${JSON.stringify(input)?.slice(0, 40) ?? String(input)})`;
