/**
 * WEBHOOKS_DELIVERY=false (`serve --no-webhooks-delivery`): an instance that writes the outbox
 * with its leads but sends nothing, leaving deliveries to the instances that do (an API-only
 * instance; the bench's measure of the outbox alone). The event waits in the outbox with the
 * endpoints that want it (SQLite: its deliveries are made by the deliverer, webhookFanout.ts;
 * PostgreSQL writes them with the event), counted as pending by /metrics; the next instance that
 * delivers, over the same database, makes its delivery and sends it. An endpoint deleted while its event waits gets nothing, and the
 * event, wanted by no one left, is deleted.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventually } from "../support/eventually.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { onPostgres } from "../support/testDatabase.ts";
import { WebhookReceiver } from "../support/webhookReceiver.ts";

const receiver = new WebhookReceiver();
const METRICS_TOKEN = "metrics-token-for-delivery-off-tests-01";
const dir = mkdtempSync(join(tmpdir(), "broker-directory-delivery-off-"));
const databasePath = join(dir, "directory.db");
const servers: TestServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
  receiver.stop();
  rmSync(dir, { recursive: true, force: true });
});

const LEAD = { name: "Quiet Hook", email: "quiet@example.ca", phone: "(416) 555-0199", insuranceType: "Home" };

test("with delivery off the event is written with the lead and waits; an instance that delivers sends it", async () => {
  const quiet = await startTestServer({ demo: false, databasePath, app: { metricsToken: METRICS_TOKEN, webhooks: { allowHttpLoopback: true, delivery: false } } });
  servers.push(quiet);
  const manager = await quiet.createKey({ workspace: "quiet", scopes: ["webhooks:manage"] });
  const writer = await quiet.createKey({ workspace: "quiet", scopes: ["leads:write"] });
  const json = { "Content-Type": "application/json" };
  const made = await quiet.request("/api/v1/webhooks", { key: manager, method: "POST", headers: json, body: JSON.stringify({ url: receiver.url("/quiet"), events: ["lead.created"] }) });
  expect(made.status).toBe(201);
  const endpoint = ((await made.json()) as { data: { id: string } }).data;
  const lead = await quiet.request("/api/v1/leads", { key: writer, method: "POST", headers: json, body: JSON.stringify(LEAD) });
  expect(lead.status).toBe(201);
  const leadId = ((await lead.json()) as { data: { id: string } }).data.id;

  // Longer than a delivering instance takes to send it (within a second or two of the commit).
  await Bun.sleep(2_500);
  expect(receiver.at("/quiet")).toHaveLength(0);
  if (onPostgres) {
    // PostgreSQL writes the delivery with the event (webhookOutbox.ts).
    const pending = await quiet.request(`/api/v1/webhooks/${endpoint.id}/deliveries`, { key: manager });
    expect(((await pending.json()) as { data: { status: string; attempts: number }[] }).data).toMatchObject([{ status: "pending", attempts: 0 }]);
  } else {
    expect(await quiet.rows("SELECT endpoint_ids FROM webhook_events")).toEqual([{ endpoint_ids: JSON.stringify([endpoint.id]) }]);
    expect(await quiet.countRows("webhook_deliveries")).toBe(0);
  }
  expect(await pendingGauge(quiet)).toBe(1);

  await quiet.close();
  servers.pop();
  const delivering = await startTestServer({ demo: false, databasePath, app: { webhooks: { allowHttpLoopback: true } } });
  servers.push(delivering);
  expect(await eventually(() => receiver.at("/quiet").length === 1, 5_000)).toBe(true);
  expect(receiver.events("/quiet")[0]).toMatchObject({ type: "lead.created", data: { id: leadId } });
  const log = await delivering.request(`/api/v1/webhooks/${endpoint.id}/deliveries`, { key: manager });
  expect(((await log.json()) as { data: { status: string; attempts: number }[] }).data).toMatchObject([{ status: "delivered", attempts: 1 }]);
});

test("an endpoint deleted while its event waits gets nothing, and the event wanted by no one is deleted", async () => {
  const path = join(dir, "deleted.db");
  const quiet = await startTestServer({ demo: false, databasePath: path, app: { webhooks: { allowHttpLoopback: true, delivery: false } } });
  servers.push(quiet);
  const manager = await quiet.createKey({ workspace: "gone", scopes: ["webhooks:manage"] });
  const writer = await quiet.createKey({ workspace: "gone", scopes: ["leads:write"] });
  const json = { "Content-Type": "application/json" };
  const make = async (route: string) => {
    const made = await quiet.request("/api/v1/webhooks", { key: manager, method: "POST", headers: json, body: JSON.stringify({ url: receiver.url(route), events: ["lead.created"] }) });
    return ((await made.json()) as { data: { id: string } }).data.id;
  };
  const kept = await make("/kept");
  const deleted = await make("/deleted");
  expect((await quiet.request("/api/v1/leads", { key: writer, method: "POST", headers: json, body: JSON.stringify(LEAD) })).status).toBe(201);
  // A second event, wanted only by the endpoint about to go: nothing will be left to send it to.
  expect((await quiet.request(`/api/v1/webhooks/${kept}`, { key: manager, method: "PATCH", headers: json, body: JSON.stringify({ enabled: false }) })).status).toBe(200);
  expect((await quiet.request("/api/v1/leads", { key: writer, method: "POST", headers: json, body: JSON.stringify(LEAD) })).status).toBe(201);
  expect((await quiet.request(`/api/v1/webhooks/${kept}`, { key: manager, method: "PATCH", headers: json, body: JSON.stringify({ enabled: true }) })).status).toBe(200);
  expect(await quiet.countRows("webhook_events")).toBe(2);
  expect((await quiet.request(`/api/v1/webhooks/${deleted}`, { key: manager, method: "DELETE" })).status).toBe(200);
  await quiet.close();
  servers.pop();

  const delivering = await startTestServer({ demo: false, databasePath: path, app: { webhooks: { allowHttpLoopback: true } } });
  servers.push(delivering);
  expect(await eventually(() => receiver.at("/kept").length === 1, 5_000)).toBe(true);
  expect(await eventually(async () => (await delivering.countRows("webhook_events")) === 1, 5_000)).toBe(true);
  expect(receiver.at("/deleted")).toHaveLength(0);
  expect(await delivering.rows("SELECT endpoint_id FROM webhook_deliveries")).toEqual([{ endpoint_id: kept }]);
});

/** broker_directory_webhook_deliveries_pending, as the server's /metrics reports it. */
async function pendingGauge(server: TestServer): Promise<number> {
  const text = await (await server.request("/metrics", { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const line = text.split("\n").find((l) => l.startsWith("broker_directory_webhook_deliveries_pending "));
  return Number(line?.split(" ")[1]);
}
