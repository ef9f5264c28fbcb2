import { EXPORT_PAGE_LEADS } from "../../router/leads/exportLeads.ts";
import { restRoute, type RestRoute } from "./restRoute.ts";

/**
 * Every REST path of /api/v1 in one table: method, path, the procedure it calls (whose scope
 * and schemas it takes) and how its result is wrapped. The OpenAPI document, the capability
 * table and the README are written from this.
 */
export const restRoutes: readonly RestRoute[] = [
  restRoute({
    method: "GET",
    path: "/api/v1/brokers",
    surface: "rest",
    procedure: "brokers.search",
    summary: "Search published brokers",
    envelope: "as-is",
  }),
  restRoute({
    method: "GET",
    path: "/api/v1/brokers/:slug",
    surface: "rest",
    procedure: "brokers.get",
    summary: "Get a published broker by slug",
    envelope: "data",
  }),
  restRoute({
    method: "GET",
    path: "/api/v1/reviews/:brokerId",
    surface: "rest",
    procedure: "reviews.list",
    // The path names the broker by id (spec 4.3); MCP's get_reviews may name it by slug.
    hiddenInputs: ["slug"],
    summary: "List a published broker's reviews, newest first",
    envelope: "as-is",
  }),
  restRoute({
    method: "POST",
    path: "/api/v1/embed/quotes",
    surface: "embed",
    procedure: "quotes.create",
    summary: "Request quotes: 3 to 8 carrier offers, cheapest first, stored for 30 days",
    body: true,
    status: 201,
    envelope: "data",
  }),
  restRoute({
    method: "GET",
    path: "/api/v1/embed/quotes/:quoteId",
    surface: "embed",
    procedure: "quotes.get",
    summary: "Get a quote of this workspace (expired quotes stay readable)",
    envelope: "data",
  }),
  restRoute({
    method: "POST",
    path: "/api/v1/policies/compare",
    surface: "rest",
    procedure: "policies.compare",
    summary: "Compare two policies (quoted offers or inline figures) side by side",
    body: true,
    envelope: "data",
  }),
  createLeadRoute("/api/v1/leads", "rest", "Create a lead in this workspace"),
  restRoute({
    method: "GET",
    path: "/api/v1/leads",
    surface: "rest",
    procedure: "leads.list",
    summary: "List this workspace's leads, newest first",
    envelope: "as-is",
  }),
  createLeadRoute("/api/v1/embed/leads", "embed", "Create a lead from a partner page (widget)"),
  restRoute({
    method: "GET",
    path: "/api/v1/carriers",
    surface: "rest",
    procedure: "carriers.list",
    summary: "List the carrier catalogue quotes are drawn from",
    envelope: "as-is",
  }),
  restRoute({
    method: "GET",
    path: "/api/v1/embed/brokers",
    surface: "embed",
    procedure: "embed.brokers",
    summary: "Published brokers for the directory widget, with lines and picture",
    envelope: "as-is",
  }),
  restRoute({
    method: "GET",
    path: "/api/v1/embed/reviews",
    surface: "embed",
    procedure: "embed.reviews",
    summary: "A broker's rating summary and latest published reviews, for the reviews widget",
    envelope: "data",
  }),
  // Issue 12 (workspace console): keys, lead follow-up and the CSV export, for scripts.
  restRoute({
    method: "GET",
    path: "/api/v1/keys",
    surface: "rest",
    procedure: "keys.list",
    summary: "List this workspace's API keys (never the keys themselves)",
    envelope: "as-is",
  }),
  restRoute({
    method: "POST",
    path: "/api/v1/keys",
    surface: "rest",
    procedure: "keys.create",
    summary: "Create an API key in this workspace: the answer carries the full key, once",
    body: true,
    status: 201,
    envelope: "as-is",
  }),
  restRoute({
    method: "POST",
    path: "/api/v1/keys/:keyId/revoke",
    surface: "rest",
    procedure: "keys.revoke",
    summary: "Revoke a key of this workspace at once",
    envelope: "data",
  }),
  restRoute({
    method: "POST",
    path: "/api/v1/keys/:keyId/roll",
    surface: "rest",
    procedure: "keys.roll",
    summary: "Replace a key with a new one of the same settings; the old one stops after the grace period",
    body: true,
    envelope: "as-is",
  }),
  restRoute({
    method: "GET",
    path: "/api/v1/keys/usage",
    surface: "rest",
    procedure: "keys.usage",
    summary: "Requests and rate-limit refusals per key per day, last 30 days",
    envelope: "data",
  }),
  restRoute({
    method: "GET",
    path: "/api/v1/leads/:leadId",
    surface: "rest",
    procedure: "leads.get",
    summary: "A lead of this workspace with its quote, broker and status history",
    envelope: "data",
  }),
  restRoute({
    method: "PATCH",
    path: "/api/v1/leads/:leadId",
    surface: "rest",
    procedure: "leads.update",
    summary: "Change a lead's status and/or add a note: appended to its history",
    body: true,
    envelope: "data",
  }),
  restRoute({
    method: "GET",
    path: "/api/v1/leads.csv",
    surface: "rest",
    procedure: "leads.export",
    summary: `Export this workspace's leads (the inbox filters apply) as CSV, streamed page by page: one rate-limit unit per ${EXPORT_PAGE_LEADS.toLocaleString("en-CA")} leads read`,
    // Every page is streamed as one file: the page cursor is tRPC's (leads.export) alone.
    hiddenInputs: ["cursor"],
    envelope: "csv",
  }),
];

/** Leads are created the same way from servers and from partner pages; only the door differs. */
function createLeadRoute(path: string, surface: RestRoute["surface"], summary: string): RestRoute {
  return restRoute({ method: "POST", path, surface, procedure: "leads.create", summary, body: true, status: 201, envelope: "data" });
}
