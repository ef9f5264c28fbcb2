/**
 * WEBHOOKS_DELIVERY=false (`serve --no-webhooks-delivery`): an instance that writes the outbox
 * with its leads but sends nothing, leaving deliveries to the instances that do (an API-only
 * instance; the bench's measure of the outbox alone). The event waits, then the next instance
 * that delivers, over the same database, sends it.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventually } from "../support/eventually.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { WebhookReceiver } from "../support/webhookReceiver.ts";

const receiver = new WebhookReceiver();
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
  const quiet = await startTestServer({ demo: false, databasePath, app: { webhooks: { allowHttpLoopback: true, delivery: false } } });
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
  const pending = await quiet.request(`/api/v1/webhooks/${endpoint.id}/deliveries`, { key: manager });
  expect(((await pending.json()) as { data: { status: string; attempts: number }[] }).data).toMatchObject([{ status: "pending", attempts: 0 }]);

  await quiet.close();
  servers.pop();
  const delivering = await startTestServer({ demo: false, databasePath, app: { webhooks: { allowHttpLoopback: true } } });
  servers.push(delivering);
  expect(await eventually(() => receiver.at("/quiet").length === 1, 5_000)).toBe(true);
  expect(receiver.events("/quiet")[0]).toMatchObject({ type: "lead.created", data: { id: leadId } });
});
