import type { ProcedurePath } from "../../router/procedureCatalog.ts";
import type { HttpMethod } from "../rest/restRoute.ts";

/**
 * The console's JSON API under /console/api: the same procedures as REST and tRPC, reached
 * with the session's principal instead of a key, through the same door (callProcedure). Inputs
 * are built as REST builds them: the JSON body with the path's ids, else the query under them.
 * `csv` answers are downloads. The capability table shows these rows in its Console column.
 */
export interface ConsoleRoute {
  method: HttpMethod;
  path: string;
  procedure: ProcedurePath;
  answer: "json" | "csv";
  /** Whether the route reads a JSON body. */
  body?: true;
  status?: 201;
}

export const consoleRoutes: readonly ConsoleRoute[] = [
  { method: "GET", path: "/console/api/keys", procedure: "keys.list", answer: "json" },
  { method: "POST", path: "/console/api/keys", procedure: "keys.create", answer: "json", body: true, status: 201 },
  { method: "POST", path: "/console/api/keys/:keyId/revoke", procedure: "keys.revoke", answer: "json" },
  { method: "POST", path: "/console/api/keys/:keyId/roll", procedure: "keys.roll", answer: "json", body: true },
  { method: "PATCH", path: "/console/api/keys/:keyId", procedure: "keys.update", answer: "json", body: true },
  { method: "GET", path: "/console/api/usage", procedure: "keys.usage", answer: "json" },
  { method: "GET", path: "/console/api/leads", procedure: "leads.list", answer: "json" },
  { method: "GET", path: "/console/api/leads.csv", procedure: "leads.export", answer: "csv" },
  { method: "GET", path: "/console/api/leads/:leadId", procedure: "leads.get", answer: "json" },
  { method: "PATCH", path: "/console/api/leads/:leadId", procedure: "leads.update", answer: "json", body: true },
  { method: "GET", path: "/console/api/webhooks", procedure: "webhooks.list", answer: "json" },
  { method: "POST", path: "/console/api/webhooks", procedure: "webhooks.create", answer: "json", body: true, status: 201 },
  { method: "PATCH", path: "/console/api/webhooks/:webhookId", procedure: "webhooks.update", answer: "json", body: true },
  { method: "DELETE", path: "/console/api/webhooks/:webhookId", procedure: "webhooks.delete", answer: "json" },
  { method: "POST", path: "/console/api/webhooks/:webhookId/test", procedure: "webhooks.test", answer: "json" },
  { method: "POST", path: "/console/api/webhooks/:webhookId/roll-secret", procedure: "webhooks.rollSecret", answer: "json", body: true },
  { method: "GET", path: "/console/api/webhooks/:webhookId/deliveries", procedure: "webhooks.deliveries", answer: "json" },
  { method: "POST", path: "/console/api/webhooks/:webhookId/deliveries/:deliveryId/resend", procedure: "webhooks.resend", answer: "json" },
  // Issue 27 section 2: the directory's write API, for a workspace the operator gave directory:write (see consoleHandler).
  { method: "GET", path: "/console/api/directory/brokers", procedure: "directory.listBrokers", answer: "json" },
  { method: "POST", path: "/console/api/directory/brokers", procedure: "directory.createBroker", answer: "json", body: true, status: 201 },
  { method: "GET", path: "/console/api/directory/brokers/:id", procedure: "directory.getBroker", answer: "json" },
  { method: "PATCH", path: "/console/api/directory/brokers/:id", procedure: "directory.updateBroker", answer: "json", body: true },
  { method: "POST", path: "/console/api/directory/brokers/:id/publish", procedure: "directory.publishBroker", answer: "json", body: true },
  { method: "POST", path: "/console/api/directory/brokers/:id/unpublish", procedure: "directory.unpublishBroker", answer: "json", body: true },
  { method: "GET", path: "/console/api/directory/brokers/:id/history", procedure: "directory.brokerHistory", answer: "json" },
  { method: "GET", path: "/console/api/directory/brokers/:id/reviews", procedure: "directory.listReviews", answer: "json" },
  { method: "POST", path: "/console/api/directory/brokers/:id/reviews", procedure: "directory.addReview", answer: "json", body: true, status: 201 },
  { method: "POST", path: "/console/api/directory/reviews/:reviewId/hide", procedure: "directory.hideReview", answer: "json", body: true },
  { method: "POST", path: "/console/api/directory/reviews/:reviewId/restore", procedure: "directory.restoreReview", answer: "json", body: true },
  { method: "POST", path: "/console/api/directory/import", procedure: "directory.import", answer: "json", body: true },
  // Issue 27 section 4: the Reviews page's queue and the Import page's file upload (in parts).
  { method: "GET", path: "/console/api/directory/reviews", procedure: "directory.reviewQueue", answer: "json" },
  { method: "POST", path: "/console/api/directory/import-file", procedure: "directory.importFile", answer: "json", body: true },
];

/** The session's own endpoints, beside the procedure routes: they call no procedure. */
export const CONSOLE_SESSION_ROUTES: readonly { method: HttpMethod; path: string; why: string }[] = [
  { method: "GET", path: "/console/api/session", why: "the signed-in workspace and the session's CSRF token" },
  { method: "POST", path: "/console/api/sign-out", why: "ends the console session" },
  { method: "GET", path: "/console/api/embed-preview", why: "the widget's script URL for embed snippets, and a preview key for this origin" },
];
