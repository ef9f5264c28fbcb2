import { afterAll, beforeAll, expect, test } from "bun:test";
import { QUOTE_PURGE_BATCH, QUOTE_PURGE_GRACE_MS } from "../../src/storage/stores/quotePurge.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { onPostgres, sqliteOnly } from "../support/testDatabase.ts";

let server: TestServer;
let key: string;
let clock = Date.parse("2026-03-01T12:00:00.000Z");
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  server.app.services.now = () => clock;
  key = await server.createKey({ workspace: "purge", rateLimitPerMinute: 1_000_000 });
});
afterAll(() => server.close());

const tenant = { insuranceType: "Tenant", province: "ON", postalCode: "K1A 0B1", details: { contentsValue: 20_000, claimsLast5Years: 0 } };
const lead = { name: "Jane Doe", email: "jane@example.com", phone: "416-555-0100", insuranceType: "Tenant" };

async function post(path: string, body: unknown): Promise<{ status: number; data: { quoteId: string; id: string } }> {
  const res = await server.request(path, { key, method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, data: ((await res.json()) as { data: { quoteId: string; id: string } }).data };
}
const quoteStatus = async (id: string) => (await server.request(`/api/v1/embed/quotes/${id}`, { key })).status;

test("quotes past expiry plus the grace are purged with their offers; quotes a lead refers to are kept", async () => {
  const orphan = (await post("/api/v1/embed/quotes", tenant)).data.quoteId;
  const referenced = (await post("/api/v1/embed/quotes", tenant)).data.quoteId;
  const linked = await post("/api/v1/leads", { ...lead, quoteId: referenced });
  expect(linked.status).toBe(201);
  clock += 30 * DAY + 1; // expired, within the grace: still readable
  const fresh = (await post("/api/v1/embed/quotes", tenant)).data.quoteId;
  expect(await server.app.maintenance.purgeNow()).toBe(0);
  expect(await quoteStatus(orphan)).toBe(200);

  clock += QUOTE_PURGE_GRACE_MS;
  expect(await server.app.maintenance.purgeNow()).toBe(1);
  expect(await quoteStatus(orphan)).toBe(404);
  expect(await quoteStatus(referenced)).toBe(200);
  expect(await quoteStatus(fresh)).toBe(200);
  // Its offers are in its row: gone with it.
  expect(await server.rows(`SELECT 1 FROM quotes WHERE id = '${orphan}'`)).toEqual([]);
  const leads = (await (await server.request("/api/v1/leads", { key })).json()) as { data: { quoteId: string | null }[] };
  expect(leads.data.map((l) => l.quoteId)).toContain(referenced);
  // PostgreSQL enforces foreign keys on every write; SQLite is asked to check.
  if (!onPostgres) expect(server.app.services.db.$client.query("PRAGMA foreign_key_check").all()).toEqual([]);
});

// SQLite only: the expired quotes are written straight into the SQLite file (bun:sqlite, one transaction).
sqliteOnly("a purge of several batches deletes every expired quote, in short transactions", async () => {
  const db = server.app.services.db.$client;
  const workspace = (db.query("SELECT workspace_id AS w FROM api_keys LIMIT 1").get() as { w: string }).w;
  const expired = clock - QUOTE_PURGE_GRACE_MS - DAY;
  const insert = db.prepare(
    "INSERT INTO quotes (id, workspace_id, insurance_type, line, province, postal_code, details, source, created_at, expires_at) VALUES (?, ?, 'Tenant', 'tenant', 'ON', 'K1A0B1', '{}', 'rest', ?, ?)",
  );
  const total = QUOTE_PURGE_BATCH * 2 + 17;
  // Many at one instant: the batch boundary falls inside a run of equal expiry times.
  db.transaction(() => {
    for (let i = 0; i < total; i++) insert.run(`bulk-${i}`, workspace, expired - 30 * DAY, i < 700 ? expired : expired + i);
  })();
  expect(await server.app.maintenance.purgeNow()).toBe(total);
  expect(await server.rows("SELECT 1 FROM quotes WHERE id LIKE 'bulk-%'")).toEqual([]);
});
