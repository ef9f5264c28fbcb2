/**
 * Issue 28: several instances over one PostgreSQL each run a deliverer, and each delivery is
 * sent by one of them at a time (claims under FOR UPDATE SKIP LOCKED, with a lease): leads
 * written through both instances reach the endpoint exactly once each when it answers 200 at
 * once. PostgreSQL only: one SQLite file is served by one server.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventually } from "../support/eventually.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { createTestPgDatabase, onPostgres } from "../support/testDatabase.ts";
import { WebhookReceiver } from "../support/webhookReceiver.ts";

const onlyOnPostgres = test.skipIf(!onPostgres);
const LEADS = 60;

let dir: string;
let instances: TestServer[] = [];
const receiver = new WebhookReceiver();

beforeAll(async () => {
  if (!onPostgres) return;
  dir = mkdtempSync(join(tmpdir(), "broker-directory-webhook-instances-"));
  const databasePath = join(dir, "shared.db");
  const app = { webhooks: { allowHttpLoopback: true, retryBaseSeconds: 0.1 } };
  instances = [await startTestServer({ demo: false, databasePath, app }), await startTestServer({ demo: false, databasePath, app })];
});
afterAll(async () => {
  for (const instance of instances) await instance.close();
  if (onPostgres) await (await createTestPgDatabase(join(dir, "shared.db"))).drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  receiver.stop();
});

onlyOnPostgres("two instances deliver every event exactly once between them", async () => {
  const [a, b] = instances as [TestServer, TestServer];
  const manager = await a.createKey({ workspace: "pair", scopes: ["webhooks:manage"] });
  const writer = await a.createKey({ workspace: "pair", scopes: ["leads:write"], rateLimitPerMinute: 100_000 });
  receiver.answer("/pair", async () => {
    await Bun.sleep(20);
    return new Response("ok");
  });
  const made = await a.request("/api/v1/webhooks", { key: manager, method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ url: receiver.url("/pair"), events: ["lead.created"] }) });
  expect(made.status).toBe(201);
  await Promise.all(
    Array.from({ length: LEADS }, async (_, i) => {
      const via = i % 2 === 0 ? a : b;
      const response = await via.request("/api/v1/leads", {
        key: writer,
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name: "Pair Hook", email: `pair${i}@example.ca`, phone: "(416) 555-0199", insuranceType: "Home" }),
      });
      expect(response.status).toBe(201);
    }),
  );
  expect(await eventually(() => receiver.at("/pair").length >= LEADS, 15_000)).toBe(true);
  // Time for a second sending, were there one.
  await Bun.sleep(1_500);
  const ids = receiver.at("/pair").map((h) => h.headers["webhook-id"]);
  expect(ids.length).toBe(LEADS);
  expect(new Set(ids).size).toBe(LEADS);
  const delivered = await a.rows<{ n: number | string }>("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'delivered' AND attempts = 1");
  expect(Number(delivered[0]!.n)).toBe(LEADS);
}, 30_000);
