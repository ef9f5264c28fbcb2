import type { Principal } from "../../auth/admitRequest.ts";
import type { RateDecision } from "../../auth/rateLimiter.ts";
import type { Context } from "../../router/trpc.ts";
import type { Services } from "../../services.ts";
import type { ToolResultCache } from "./toolResultCache.ts";
import type { StreamedText } from "./streamedText.ts";

/** The protocol family of one request: `initialize`-based (2025) or per-request `_meta` (2026-07-28). */
export type Era = "legacy" | "modern";

/** What a method handler knows about the HTTP request it serves. Built once per HTTP request. */
export interface McpCallContext {
  era: Era;
  services: Services;
  principal: Principal;
  /** The context procedures run in (see callProcedure), made once per HTTP request after admission. */
  procedureContext: Context;
  /** The service's origin as this request reached it (answers holding it are cached per origin). */
  baseUrl: string;
  /** Serialized results of directory-reading tools (see toolCall), valid for one directory version. */
  toolResults: ToolResultCache;
  /** The key's latest rate decision (admission, then each charge): the response's RateLimit headers. */
  rate: RateDecision;
  /** Large texts a result refers to, streamed when the response is written (see StreamedText). */
  streamed: StreamedText[];
  /** Logs an unexpected failure with its detail (never shown to the client). */
  logFailure(message: string, error: unknown): void;
}
