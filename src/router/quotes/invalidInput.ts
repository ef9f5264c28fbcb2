import { CodedError } from "../../schemas/errorCodes.ts";

export interface InputProblem {
  /** From the input's root: ["details", "driverAge"]. */
  path: readonly PropertyKey[];
  message: string;
}

/**
 * The cause of an input failure found after the schema passed, shaped like a schema failure
 * (an Error with zod-style `issues`) so every adapter reports both the same way. An Error,
 * because tRPC keeps Error causes as they are (a zod v4 ZodError is not one).
 */
class InputIssuesError extends Error {
  readonly issues: { code: "custom"; path: PropertyKey[]; message: string }[];
  constructor(problems: readonly InputProblem[]) {
    super(problems.map((p) => p.message).join("; "));
    this.name = "InputIssuesError";
    this.issues = problems.map((p) => ({ code: "custom", path: [...p.path], message: p.message }));
  }
}

/**
 * A 422 for problems found after the schema passed (rules that need the database or the
 * clock): one `{path, message}` per field, e.g. `details.driverAge`.
 */
export function invalidInput(problems: readonly InputProblem[]): CodedError {
  return new CodedError("invalid_parameter", problems.map((p) => p.message).join("; "), new InputIssuesError(problems));
}
