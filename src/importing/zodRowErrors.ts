import type { z } from "zod";
import type { RowError } from "./rowError.ts";

/** Where an issue's path points in the file: the line, and the field as the person sees it. */
export type Locate = (path: readonly PropertyKey[]) => { line: number; field: string };

/** `locations[1].postalCode`: a JSON record's field by its path. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const part of path) text += typeof part === "number" ? `[${part}]` : `${text === "" ? "" : "."}${String(part)}`;
  return text;
}

/** A JSON record's issues all sit on its line, each named by its path. */
export const atLine =
  (line: number): Locate =>
  (path) => ({ line, field: fieldPath(path) });

/** A CSV row's issues sit on its line, each named by its column (a list's item by the list's). */
export const cellAt =
  (line: number): Locate =>
  (path) => ({ line, field: typeof path[0] === "string" ? path[0] : "" });

export function rowErrors(error: z.ZodError, locate: Locate): RowError[] {
  return error.issues.map((issue) => ({ ...locate(issue.path), message: issue.message }));
}
