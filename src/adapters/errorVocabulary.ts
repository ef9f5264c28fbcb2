import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { isBusyLock, storageFaultOf, type StorageFault } from "../storage/storageFault.ts";

/**
 * The status of a request whose client went away before it was answered (nginx's 499): its own
 * label in the access log and metrics, an info line like any answer, never a 500 of ours.
 */
export const CLIENT_CLOSED_REQUEST = 499;

/**
 * The one place where procedure error codes meet HTTP: every adapter that answers with an
 * HTTP status asks here. Anything not listed is a fault of ours and becomes a bare 500.
 */
const STATUS_BY_CODE: Partial<Record<TRPCError["code"], number>> = {
  BAD_REQUEST: 422,
  UNPROCESSABLE_CONTENT: 422,
  PARSE_ERROR: 422,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_SUPPORTED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  CLIENT_CLOSED_REQUEST: CLIENT_CLOSED_REQUEST,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  SERVICE_UNAVAILABLE: 503,
};

/** How long a client should wait before retrying what the database refused (full, read-only, unreachable). */
export const STORAGE_RETRY_AFTER_SECONDS = 30;

const STORAGE_FAULT_MESSAGES: Record<StorageFault, string> = {
  full: "The service cannot store anything right now: its storage is full. Nothing was saved; retry later.",
  "read-only": "The service cannot store anything right now: its database is read-only. Nothing was saved; retry later.",
  unavailable: "The service cannot reach its database right now. Nothing was saved; retry later.",
};

/** A write lock held by another process past the lock wait (a seed, an import): such writes are long but end. */
export const BUSY_RETRY_AFTER_SECONDS = 5;
const BUSY_MESSAGE = "The service's database is busy with a long write (an import or a maintenance command). Nothing was saved; retry in a few seconds.";

export const INTERNAL_ERROR_MESSAGE = "Internal server error. The failure was logged; retry later or contact the operator.";

export interface FieldIssue {
  /** Dot-joined path from the input's root: "details.driverAge", "page". */
  path: string;
  message: string;
}

export interface PublicError {
  status: number;
  message: string;
  /** Per-field problems for invalid input, so a form can show each next to its field. */
  issues?: FieldIssue[];
  /** True when the detail must go to the log only (the caller sees a generic message). */
  internal: boolean;
  /** Set when the caller should retry later (503): each adapter sends it as Retry-After. */
  retryAfterSeconds?: number;
}

/** Turns anything thrown by a procedure into what a caller may see. */
export function toPublicError(error: unknown): PublicError {
  // A full, read-only or unreachable database is nobody's bug: 503 and retry later, on every surface. It
  // is logged once per episode where it happens (StorageHealth), not per request.
  const fault = storageFaultOf(error);
  if (fault) return { status: 503, message: STORAGE_FAULT_MESSAGES[fault], internal: false, retryAfterSeconds: STORAGE_RETRY_AFTER_SECONDS };
  // Busy is not a fault (the database works; GroupCommit logs the episode once): 503 all the same.
  if (isBusyLock(error)) return { status: 503, message: BUSY_MESSAGE, internal: false, retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS };
  const trpcError = error instanceof TRPCError ? error : undefined;
  const status = trpcError ? STATUS_BY_CODE[trpcError.code] : undefined;
  if (!trpcError || status === undefined) return { status: 500, message: INTERNAL_ERROR_MESSAGE, internal: true };
  const zodError = findZodError(trpcError);
  if (zodError) {
    const issues = describeIssues(zodError);
    return { status, message: issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; "), issues, internal: false };
  }
  return { status, message: trpcError.message, internal: false };
}

/** The Retry-After header a refusal carries, if any. */
export function retryAfterHeaders(failure: PublicError): Record<string, string> {
  return failure.retryAfterSeconds === undefined ? {} : { "Retry-After": String(failure.retryAfterSeconds) };
}

function findZodError(error: TRPCError): z.ZodError | undefined {
  const cause = error.cause;
  if (cause instanceof z.ZodError) return cause;
  if (cause && typeof cause === "object" && "issues" in cause && Array.isArray(cause.issues)) {
    return cause as z.ZodError;
  }
  return undefined;
}

/** One line per distinct problem, with unknown keys spelled out by name. */
export function describeIssues(error: z.ZodError): FieldIssue[] {
  const seen = new Set<string>();
  const out: FieldIssue[] = [];
  for (const issue of error.issues) {
    const base = issue.path.map(String).join(".");
    const entries: FieldIssue[] =
      issue.code === "unrecognized_keys"
        ? issue.keys.map((key) => ({ path: base ? `${base}.${key}` : key, message: "is not a known field" }))
        : [{ path: base, message: issue.message }];
    for (const entry of entries) {
      const id = `${entry.path}\u0000${entry.message}`;
      if (seen.has(id)) continue;
      seen.add(id);
      out.push(entry);
    }
  }
  return out;
}
