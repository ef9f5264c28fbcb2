import { CodedError } from "../../schemas/errorCodes.ts";

export interface InputProblem {
  /** From the input's root: ["details", "driverAge"]. */
  path: readonly PropertyKey[];
  message: string;
  /**
   * Its French, for a request that asks for French: required when the message quotes outside
   * input (a slug, a URL); else the French declared with said() is found from the English.
   */
  fr?: string;
}

/**
 * The cause of an input failure found after the schema passed, shaped like a schema failure
 * (an Error with zod-style `issues`) so every adapter reports both the same way. An Error,
 * because tRPC keeps Error causes as they are (a zod v4 ZodError is not one).
 */
class InputIssuesError extends Error {
  readonly issues: { code: "custom"; path: PropertyKey[]; message: string; params?: { fr: string } }[];
  constructor(problems: readonly InputProblem[]) {
    super(problems.map((p) => p.message).join("; "));
    this.name = "InputIssuesError";
    this.issues = problems.map((p) => ({ code: "custom", path: [...p.path], message: p.message, ...(p.fr === undefined ? {} : { params: { fr: p.fr } }) }));
  }
}

/** The French a zod issue carries (`params.fr`), to pass on with it as an InputProblem's `fr`. */
export function carriedFrench(issue: object): string | undefined {
  const fr = (issue as { params?: { fr?: unknown } }).params?.fr;
  return typeof fr === "string" ? fr : undefined;
}

/**
 * A 422 for problems found after the schema passed (rules that need the database or the
 * clock): one `{path, message}` per field, e.g. `details.driverAge`.
 */
export function invalidInput(problems: readonly InputProblem[]): CodedError {
  return new CodedError("invalid_parameter", problems.map((p) => p.message).join("; "), new InputIssuesError(problems));
}
