import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { CodedError, kindOf, type ErrorCode } from "../schemas/errorCodes.ts";
import type { Language } from "../schemas/language.ts";
import { frenchMessage, UNKNOWN_FIELD_FR } from "./frenchIssues.ts";
import { isBusyLock, storageFaultOf, type StorageFault } from "../storage/storageFault.ts";

/**
 * The status of a request whose client went away before it was answered (nginx's 499): its own
 * label in the access log and metrics, an info line like any answer, never a 500 of ours.
 */
export const CLIENT_CLOSED_REQUEST = 499;

/**
 * The one place where procedure error codes meet HTTP: every adapter that answers with an
 * HTTP status asks here (statusOf). Anything not listed is a fault of ours and becomes a bare 500.
 */
const STATUS_BY_KIND: Partial<Record<TRPCError["code"], number>> = {
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

/** Codes only the HTTP front door gives, whose status tRPC has no kind for. */
const HTTP_ONLY_STATUS: Partial<Record<ErrorCode, number>> = {
  invalid_request_target: 400,
  not_acceptable: 406,
  request_target_too_long: 414,
};

/**
 * The HTTP status of an error code: one code, one status, on REST, embed, the console and the
 * front door (tRPC answers its kind's own status, and MCP's JSON-RPC errors keep theirs).
 */
export function statusOf(code: ErrorCode): number {
  return HTTP_ONLY_STATUS[code] ?? STATUS_BY_KIND[kindOf(code)] ?? 500;
}

/**
 * The code of a TRPCError made by tRPC itself (input that fails a procedure's schema, a path
 * that names no procedure, malformed JSON in a tRPC query…): ours carry theirs (CodedError).
 * Any other kind without a code is a fault of ours.
 */
const CODE_OF_UNCODED_KIND: Partial<Record<TRPCError["code"], ErrorCode>> = {
  BAD_REQUEST: "invalid_parameter",
  UNPROCESSABLE_CONTENT: "invalid_parameter",
  PARSE_ERROR: "invalid_json",
  NOT_FOUND: "not_found",
  METHOD_NOT_SUPPORTED: "method_not_allowed",
  PAYLOAD_TOO_LARGE: "payload_too_large",
  UNSUPPORTED_MEDIA_TYPE: "unsupported_media_type",
  CLIENT_CLOSED_REQUEST: "client_closed_request",
};

/** Where the manual explains a code: a path on this server (the same on every host and behind any proxy). */
export function errorDocs(code: ErrorCode): string {
  return `/docs/manual/errors#${code}`;
}

/** What every error answer adds to its message, on every surface: the code, the request's id, the manual's entry. */
export function errorFields(code: ErrorCode, requestId: string): { code: ErrorCode; requestId: string; docs: string } {
  return { code, requestId, docs: errorDocs(code) };
}

/** How long a client should wait before retrying what the database refused (full, read-only, unreachable). */
export const STORAGE_RETRY_AFTER_SECONDS = 30;

const STORAGE_FAULTS: Record<StorageFault, { code: ErrorCode; message: string }> = {
  full: { code: "storage_full", message: "The service cannot store anything right now: its storage is full. Nothing was saved; retry later." },
  "read-only": { code: "read_only", message: "The service cannot store anything right now: its database is read-only. Nothing was saved; retry later." },
  unavailable: { code: "database_unavailable", message: "The service cannot reach its database right now. Nothing was saved; retry later." },
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
  /** The failure's code in the one vocabulary (src/schemas/errorCodes.ts). */
  code: ErrorCode;
  status: number;
  message: string;
  /** Per-field problems for invalid input, so a form can show each next to its field. */
  issues?: FieldIssue[];
  /**
   * The same issues (same paths, same order) with French messages, made only when called: for
   * a request that asks for French. Present exactly when `issues` is.
   */
  frenchIssues?: () => FieldIssue[];
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
  if (fault) {
    const { code, message } = STORAGE_FAULTS[fault];
    return { code, status: 503, message, internal: false, retryAfterSeconds: STORAGE_RETRY_AFTER_SECONDS };
  }
  // Busy is not a fault (the database works; GroupCommit logs the episode once): 503 all the same.
  if (isBusyLock(error)) return { code: "database_busy", status: 503, message: BUSY_MESSAGE, internal: false, retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS };
  const code = error instanceof CodedError ? error.errorCode : error instanceof TRPCError ? CODE_OF_UNCODED_KIND[error.code] : undefined;
  const status = code === undefined ? 500 : statusOf(code);
  if (!(error instanceof TRPCError) || code === undefined || status === 500) return { code: "internal_error", status: 500, message: INTERNAL_ERROR_MESSAGE, internal: true };
  const zodError = findZodError(error);
  if (zodError) {
    const issues = describeIssues(zodError);
    const frenchIssues = () => describeIssues(zodError, "fr");
    return { code, status, message: issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; "), issues, frenchIssues, internal: false };
  }
  return { code, status, message: error.message, internal: false };
}

/** A failure's field issues in a language: French only when asked (made then), else the English as made. */
export function issuesIn(language: Language | undefined, failure: PublicError): FieldIssue[] | undefined {
  return language === "fr" && failure.frenchIssues ? failure.frenchIssues() : failure.issues;
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

/**
 * One line per distinct problem, with unknown keys spelled out by name. In French ("fr") each
 * message is frenchMessage's; which lines are distinct is decided on the English either way, so
 * both languages list the same paths in the same order.
 */
export function describeIssues(error: z.ZodError, language: Language = "en"): FieldIssue[] {
  const seen = new Set<string>();
  const out: FieldIssue[] = [];
  for (const issue of error.issues) {
    const base = issue.path.map(String).join(".");
    const unknownKeys = issue.code === "unrecognized_keys";
    const entries: FieldIssue[] = unknownKeys
      ? issue.keys.map((key) => ({ path: base ? `${base}.${key}` : key, message: "is not a known field" }))
      : [{ path: base, message: issue.message }];
    for (const entry of entries) {
      const id = `${entry.path}\u0000${entry.message}`;
      if (seen.has(id)) continue;
      seen.add(id);
      if (language === "fr") entry.message = unknownKeys ? UNKNOWN_FIELD_FR : frenchMessage(issue);
      out.push(entry);
    }
  }
  return out;
}
