import type { DirectoryDb } from "../../storage/sqlite/database.ts";
import { errorResponse, type ErrorAsker } from "../http/json.ts";
import { databaseBytes } from "../../ops/databaseSize.ts";
import type { HttpMetrics } from "../../ops/httpMetrics.ts";
import { decideMetricsAccess } from "./metricsAccess.ts";
import type { CacheStats } from "../../cache/boundedCache.ts";
import { cacheGauges } from "../../ops/cacheGauges.ts";
import { logLinesLost } from "../../logOutput.ts";
import { WebhookAttemptCounts } from "../../ops/webhooks/attemptCounts.ts";
import { webhookGauges } from "../../ops/webhooks/webhookGauges.ts";
import type { OutboxGauges } from "../../storage/stores/webhookOutboxGauges.ts";

export interface MetricsEndpointOptions {
  metrics: HttpMetrics;
  db: DirectoryDb;
  /** METRICS_TOKEN: lets a remote scraper in with `Authorization: Bearer <token>`. */
  token: string | undefined;
  /** The sizes of the server's caches, rendered as gauges. */
  caches?: () => readonly CacheStats[];
  /** Requests begun and not yet finished (InFlightResponses: what graceful stop waits for). */
  inFlight?: () => number;
  /** The webhook outbox's backlog, read at scrape time (WebhookStore.outboxGauges). */
  outbox?: () => Promise<OutboxGauges>;
  /** Webhook attempts this process's deliverer recorded, by outcome. */
  webhookAttempts?: WebhookAttemptCounts;
  now?: () => number;
}

const STARTED_AT_SECONDS = Math.floor(Date.now() / 1000);

/** GET /metrics (the front door refuses other methods): the request metrics plus a few gauges read at scrape time. */
export function createMetricsEndpoint({ metrics, db, token, caches, inFlight, outbox, webhookAttempts = new WebhookAttemptCounts(), now = Date.now }: MetricsEndpointOptions) {
  /** `local`: the request comes from this machine, directly (isLocalClient). */
  return async function serveMetrics(request: Request, asker: ErrorAsker, local: boolean): Promise<Response> {
    const access = decideMetricsAccess({ local, authorization: request.headers.get("authorization"), token });
    if (!access.allowed) {
      const headers: Record<string, string> = access.code === "invalid_metrics_token" ? { "WWW-Authenticate": 'Bearer realm="metrics"' } : {};
      return errorResponse(asker, access.code, access.message, headers);
    }
    const gauges = [
      "# HELP broker_directory_database_bytes Size of the SQLite database on disk (main file plus write-ahead log).",
      "# TYPE broker_directory_database_bytes gauge",
      `broker_directory_database_bytes ${databaseBytes(db.$client)}`,
      "# HELP process_resident_memory_bytes Resident memory of the server process.",
      "# TYPE process_resident_memory_bytes gauge",
      `process_resident_memory_bytes ${process.memoryUsage.rss()}`,
      "# HELP process_start_time_seconds Start time of the process since the Unix epoch.",
      "# TYPE process_start_time_seconds gauge",
      `process_start_time_seconds ${STARTED_AT_SECONDS}`,
      "# HELP broker_directory_http_requests_in_flight Requests received and not yet finished (this scrape included); a graceful stop waits for them.",
      "# TYPE broker_directory_http_requests_in_flight gauge",
      `broker_directory_http_requests_in_flight ${inFlight?.() ?? 0}`,
      "# HELP broker_directory_log_lines_lost_total Log lines dropped because their output (standard output or error) could not be written.",
      "# TYPE broker_directory_log_lines_lost_total counter",
      `broker_directory_log_lines_lost_total ${logLinesLost()}`,
      ...cacheGauges(caches?.() ?? []),
      // A database that does not answer leaves the outbox's series out; the rest is still served.
      ...webhookGauges(await outbox?.().catch(() => undefined), webhookAttempts, now()),
    ];
    return new Response(metrics.render() + gauges.join("\n") + "\n", {
      headers: { "Content-Type": "text/plain; version=0.0.4; charset=utf-8", "Cache-Control": "no-store" },
    });
  };
}
