import { CodedError } from "../schemas/errorCodes.ts";

/** Where a NUL character (U+0000) sits in a procedure's input ("name", "details.notes"), if anywhere. */
export function nulPath(value: unknown, path = ""): string | undefined {
  if (typeof value === "string") return value.includes("\0") ? path || "input" : undefined;
  if (typeof value !== "object" || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = nulPath(item, path ? `${path}.${key}` : key);
    if (found) return found;
  }
  return undefined;
}

/**
 * Writes never store a NUL character: PostgreSQL refuses it in text and jsonb (a 500 waiting to
 * happen), no name, e-mail, note or quote detail needs one, and both databases must answer
 * alike. Refused as a 422 naming the field, on every surface. Reads are left alone: a search
 * for hostile text still answers 200 (the directory is read from SQLite either way).
 */
export function refuseNulInWrite(input: unknown): void {
  const path = nulPath(input);
  if (path) {
    throw new CodedError("invalid_parameter", `${path}: must not contain the NUL character (U+0000). Remove it and send again.`);
  }
}
