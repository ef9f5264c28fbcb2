/**
 * Issue 25 item 7: a key is rolled at most once. Rolling a key already in its grace answers 409
 * naming its successor (so no successor ever inherits a grace's end as its own expiry), and
 * concurrent rolls of one key make exactly one successor: the store marks the old key replaced
 * by a conditional UPDATE in the same transaction as the successor's insert.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server.ts";

interface KeyView { id: string; status: string; expiresAt: string | null; replacedBy: string | null }
interface Rolled { key: string; data: KeyView; previous: KeyView }

let server: TestServer;
let manager: string;

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  manager = await server.createKey({ workspace: "rolls", scopes: ["keys:manage", "brokers:read"] });
});
afterAll(() => server.close());

const post = (path: string, body: unknown) =>
  server.request(path, { key: manager, method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

async function newKey(name: string): Promise<KeyView> {
  const response = await post("/api/v1/keys", { name, scopes: ["brokers:read"] });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: KeyView }).data;
}

test("rolling a non-expiring key twice with a 24h grace: the second roll is a 409 naming the successor, which never expires", async () => {
  const original = await newKey("never expires");
  const first = await post(`/api/v1/keys/${original.id}/roll`, { grace: "24h" });
  expect(first.status).toBe(200);
  const rolled = (await first.json()) as Rolled;
  expect(rolled.data.expiresAt).toBeNull();
  expect(rolled.previous.replacedBy).toBe(rolled.data.id);
  expect(rolled.previous.expiresAt).not.toBeNull();

  const second = await post(`/api/v1/keys/${original.id}/roll`, { grace: "24h" });
  expect(second.status).toBe(409);
  expect(((await second.json()) as { error: string }).error).toContain(`Roll ${rolled.data.id} instead`);

  // The successor is a key like any other: its own roll keeps its (absent) expiry.
  const next = (await (await post(`/api/v1/keys/${rolled.data.id}/roll`, { grace: "24h" })).json()) as Rolled;
  expect(next.data.expiresAt).toBeNull();
  const live = await server.rows<{ id: string }>("SELECT id FROM api_keys WHERE name = ? AND expires_at IS NULL AND revoked_at IS NULL", ["never expires"]);
  expect(live.map((r) => r.id)).toEqual([next.data.id]);
});

test("six concurrent rolls of one key over HTTP: exactly one successor, five 409s", async () => {
  const original = await newKey("raced");
  const answers = await Promise.all(Array.from({ length: 6 }, () => post(`/api/v1/keys/${original.id}/roll`, { grace: "24h" })));
  expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
  const keys = await server.rows<{ id: string }>("SELECT id FROM api_keys WHERE name = ?", ["raced"]);
  expect(keys.length).toBe(2);
  const [old] = await server.rows<{ replaced_by: string }>("SELECT replaced_by FROM api_keys WHERE id = ?", [original.id]);
  const winner = (await answers.find((r) => r.status === 200)!.json()) as Rolled;
  expect(old!.replaced_by).toBe(winner.data.id);
});

test("a key with an expiry of its own: the successor keeps it, the old key ends at the earlier of it and the grace", async () => {
  const expiresAt = new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d+Z$/, ".000Z");
  const made = await post("/api/v1/keys", { name: "expiring", scopes: ["brokers:read"], expiresAt });
  const original = ((await made.json()) as { data: KeyView }).data;
  const rolled = (await (await post(`/api/v1/keys/${original.id}/roll`, { grace: "7d" })).json()) as Rolled;
  expect(rolled.data.expiresAt).toBe(expiresAt);
  expect(rolled.previous.expiresAt).toBe(expiresAt);
});
