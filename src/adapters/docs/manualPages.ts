import api from "./manual/api.md" with { type: "text" };
import changelog from "./manual/changelog.md" with { type: "text" };
import consolePage from "./manual/console.md" with { type: "text" };
import errors from "./manual/errors.md" with { type: "text" };
import idempotency from "./manual/idempotency.md" with { type: "text" };
import mcp from "./manual/mcp.md" with { type: "text" };
import operations from "./manual/operations.md" with { type: "text" };
import performance from "./manual/performance.md" with { type: "text" };
import scalingOut from "./manual/scaling-out.md" with { type: "text" };
import security from "./manual/security.md" with { type: "text" };
import webhooks from "./manual/webhooks.md" with { type: "text" };
import widget from "./manual/widget.md" with { type: "text" };

/**
 * The manual: Markdown pages kept beside this file (src/adapters/docs/manual/*.md) and imported
 * as text, so `bun build --compile` embeds them and every executable carries the manual of its
 * own version, offline. The set is fixed here at build time: a request names a page by its
 * `name`, never by a file path (nothing is read from the file system per request).
 *
 * `name` is the page's URL segment (/docs/manual/<name>) and its file's name without `.md`, so
 * the pages link to each other as `security.md#…`, which works on GitHub and, rewritten, here.
 */
export interface ManualPage {
  name: string;
  /** One line for the index. */
  summary: string;
  markdown: string;
}

export const MANUAL_PAGES: readonly ManualPage[] = [
  { name: "api", summary: "REST API, keys, scopes and rate limits, quotes, leads, the embed API, OpenAPI and the tRPC client", markdown: api },
  { name: "errors", summary: "Every error code: its status, what it means and what to do; the error body on each surface; French messages", markdown: errors },
  { name: "idempotency", summary: "Idempotency keys: retrying a POST that creates a lead, quote or key without creating it twice", markdown: idempotency },
  { name: "mcp", summary: "The MCP endpoint for AI agents: connecting a host, tools, resources, errors", markdown: mcp },
  { name: "widget", summary: "The embeddable widget: the snippet, attributes, theming, parts and events", markdown: widget },
  { name: "webhooks", summary: "Webhooks: events, endpoints, signatures (Standard Webhooks), retries, receiving in Bun and Node, SSRF safety", markdown: webhooks },
  { name: "console", summary: "The workspace console: sign-in links, keys, leads, usage", markdown: consolePage },
  { name: "operations", summary: "Probes, metrics, logs, shutdown, data, backups, settings, a VM, durability, the executable, tests", markdown: operations },
  { name: "scaling-out", summary: "Several instances: Valkey/Redis, PostgreSQL, directory replicas, HAProxy", markdown: scalingOut },
  { name: "security", summary: "What the server promises whatever a client sends, and what the operator must do", markdown: security },
  { name: "performance", summary: "The bench, its latest figures, and where the time and memory go", markdown: performance },
  { name: "changelog", summary: "What changed, release by release", markdown: changelog },
];
