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
    directoryRead: true,
    envelope: "as-is",
  }),
  restRoute({
    method: "GET",
    path: "/api/v1/brokers/:slug",
    surface: "rest",
    procedure: "brokers.get",
    summary: "Get a published broker by slug",
    directoryRead: true,
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
    directoryRead: true,
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
    directoryRead: true,
    envelope: "as-is",
  }),
  restRoute({
    method: "GET",
    path: "/api/v1/embed/reviews",
    surface: "embed",
    procedure: "embed.reviews",
    summary: "A broker's rating summary and latest published reviews, for the reviews widget",
    directoryRead: true,
    envelope: "data",
  }),
];

/** Leads are created the same way from servers and from partner pages; only the door differs. */
function createLeadRoute(path: string, surface: RestRoute["surface"], summary: string): RestRoute {
  return restRoute({ method: "POST", path, surface, procedure: "leads.create", summary, body: true, status: 201, envelope: "data" });
}
