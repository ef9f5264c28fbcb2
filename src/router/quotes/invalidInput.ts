import { TRPCError } from "@trpc/server";
import { z } from "zod";

export interface InputProblem {
  /** From the input's root: ["details", "driverAge"]. */
  path: readonly PropertyKey[];
  message: string;
}

/**
 * A 422 for problems found after the schema passed (rules that need the database or the
 * clock), shaped like a zod failure so every adapter reports it the same way: one
 * `{path, message}` per field, e.g. `details.driverAge`.
 */
export function invalidInput(problems: readonly InputProblem[]): TRPCError {
  const error = new z.ZodError(problems.map((p) => ({ code: "custom" as const, path: [...p.path], message: p.message, input: undefined })));
  return new TRPCError({ code: "UNPROCESSABLE_CONTENT", message: problems.map((p) => p.message).join("; "), cause: error });
}

/** "is required" when the field is absent, else the given complaint (zod `error` callback). */
export const requiredOr = (complaint: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? "is required" : complaint;
