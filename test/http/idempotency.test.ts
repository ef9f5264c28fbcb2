import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { IDEMPOTENCY_WINDOW_MS } from "../../src/storage/stores/idempotencyStore.ts";
import { AUTO_QUOTE, postMcp } from "../mcp/mcpSupport.ts";
import { eventually } from "../support/eventually.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

// Issue 28 §2: a POST that creates something, sent again with the same Idempotency-Key, gets
// the first answer and creates nothing more, on every surface and both databases.

let server: TestServer;
let key: string;
let clock = Date.parse("2026-03-01T12:00:00.000Z");

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  server.app.services.now = () => clock;
  key = await server.createKey({ workspace: "idem", rateLimitPerMinute: 1_000_000 });
});
afterAll(() => server.close());

const lead = { name: "Jane Doe", email: "jane@example.com", phone: "416-555-0100", insuranceType: "Tenant" };
const tenant = { insuranceType: "Tenant", province: "ON", postalCode: "K1A 0B1", details: { contentsValue: 20_000, claimsLast5Years: 0 } };
let serial = 0;
const newKey = () => `test-${++serial}-${crypto.randomUUID()}`;

function post(path: string, body: unknown, idempotencyKey?: string, apiKey = key): Promise<Response> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (idempotencyKey !== undefined) headers["Idempotency-Key"] = idempotencyKey;
  return server.request(path, { key: apiKey, method: "POST", headers, body: JSON.stringify(body) });
}
const leadsNamed = async (email: string) => (await server.rows("SELECT id FROM leads WHERE email = ?", [email])).length;

test("the same key and body answer the first answer, byte for byte, with Idempotent-Replayed: true, and store one lead", async () => {
  const idem = newKey();
  const body = { ...lead, email: "replay@example.com" };
  const first = await post("/api/v1/leads", body, idem);
  expect(first.status).toBe(201);
  expect(first.headers.get("idempotent-replayed")).toBeNull();
  const firstText = await first.text();

  clock += 60_000; // a retry a minute later: the stored answer, not a new createdAt
  // The same body with its keys in another order is the same request.
  const reordered = Object.fromEntries(Object.entries(body).reverse());
  const again = await post("/api/v1/leads", reordered, idem);
  expect(again.status).toBe(201);
  expect(again.headers.get("idempotent-replayed")).toBe("true");
  expect(again.headers.get("content-type")).toBe(first.headers.get("content-type"));
  expect(await again.text()).toBe(firstText);
  expect(await leadsNamed("replay@example.com")).toBe(1);
});

test("quotes replay too, on the embed path", async () => {
  const idem = newKey();
  const first = await post("/api/v1/embed/quotes", tenant, idem);
  expect(first.status).toBe(201);
  const again = await post("/api/v1/embed/quotes", tenant, idem);
  expect(again.headers.get("idempotent-replayed")).toBe("true");
  const text = await again.text();
  expect(text).toBe(await first.text());
  const quoteId = (JSON.parse(text) as { data: { quoteId: string } }).data.quoteId;
  expect(await server.rows("SELECT id FROM quotes WHERE id = ?", [quoteId])).toHaveLength(1);
});

test("the same key with another body is a 422 idempotency_conflict, and nothing is created", async () => {
  const idem = newKey();
  expect((await post("/api/v1/leads", { ...lead, email: "conflict@example.com" }, idem)).status).toBe(201);
  const other = await post("/api/v1/leads", { ...lead, email: "conflict-2@example.com" }, idem);
  expect(other.status).toBe(422);
  const body = (await other.json()) as { code: string; error: string };
  expect(body.code).toBe("idempotency_conflict");
  expect(body.error).toContain("Idempotency-Key");
  expect(await leadsNamed("conflict-2@example.com")).toBe(0);
  // Another endpoint under the same key is another request too.
  expect(((await (await post("/api/v1/embed/leads", { ...lead, email: "conflict@example.com" }, idem)).json()) as { code: string }).code).toBe("idempotency_conflict");
});

test("20 requests at once with one key make exactly one lead; every one answers the same 201", async () => {
  const idem = newKey();
  const body = { ...lead, email: "race@example.com" };
  const answers = await Promise.all(Array.from({ length: 20 }, () => post("/api/v1/leads", body, idem)));
  expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
  const texts = await Promise.all(answers.map((a) => a.text()));
  expect(new Set(texts).size).toBe(1);
  // One was processed; the others waited for it (at the key's unique index) and replay its answer.
  expect(answers.filter((a) => a.headers.get("idempotent-replayed") === null)).toHaveLength(1);
  expect(await leadsNamed("race@example.com")).toBe(1);
});

test("keys are scoped to the workspace: another workspace's same key is independent; another key of the same workspace replays", async () => {
  const idem = newKey();
  const body = { ...lead, email: "scoped@example.com" };
  const other = await server.createKey({ workspace: "idem-other", rateLimitPerMinute: 1_000_000 });
  const sibling = await server.createKey({ workspace: "idem", rateLimitPerMinute: 1_000_000 });
  const first = await post("/api/v1/leads", body, idem);
  const elsewhere = await post("/api/v1/leads", body, idem, other);
  expect(elsewhere.status).toBe(201);
  expect(elsewhere.headers.get("idempotent-replayed")).toBeNull();
  expect(await elsewhere.text()).not.toBe(await first.clone().text());
  const sameWorkspace = await post("/api/v1/leads", body, idem, sibling);
  expect(sameWorkspace.headers.get("idempotent-replayed")).toBe("true");
  expect(await sameWorkspace.text()).toBe(await first.text());
  expect(await leadsNamed("scoped@example.com")).toBe(2);
});

test("after 24 hours the key creates afresh, and the purge deletes records past 24 hours", async () => {
  const idem = newKey();
  const body = { ...lead, email: "expiry@example.com" };
  const first = await post("/api/v1/leads", body, idem);
  clock += IDEMPOTENCY_WINDOW_MS - 1;
  expect((await post("/api/v1/leads", body, idem)).headers.get("idempotent-replayed")).toBe("true");
  clock += 1;
  const later = await post("/api/v1/leads", body, idem);
  expect(later.status).toBe(201);
  expect(later.headers.get("idempotent-replayed")).toBeNull();
  expect(await later.text()).not.toBe(await first.text());
  expect(await leadsNamed("expiry@example.com")).toBe(2);

  const fresh = newKey();
  expect((await post("/api/v1/leads", { ...body, email: "fresh@example.com" }, fresh)).status).toBe(201);
  clock += 1; // every earlier record is now past 24 hours; the two just written are not
  await server.app.maintenance.purgeNow();
  const left = await server.rows<{ key: string }>("SELECT key FROM idempotency_records ORDER BY key");
  expect(left.map((r) => r.key).sort()).toEqual([idem, fresh].sort());
});

test("a bad key is a 422 invalid_parameter naming the header, and nothing is created", async () => {
  for (const bad of ["x".repeat(256), "tab\there", "é-accent"]) {
    const res = await server.request("/api/v1/leads", {
      key,
      method: "POST",
      // A header value fetch accepts: bytes outside ASCII go as Latin-1.
      headers: { "Content-Type": "application/json", "Idempotency-Key": bad },
      body: JSON.stringify({ ...lead, email: "bad-key@example.com" }),
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { code: string; error: string };
    expect(body.code).toBe("invalid_parameter");
    expect(body.error).toContain("Idempotency-Key");
  }
  expect(await leadsNamed("bad-key@example.com")).toBe(0);
  // 255 printable characters is the longest key.
  expect((await post("/api/v1/leads", { ...lead, email: "long-key@example.com" }, "k".repeat(255))).status).toBe(201);
});

test("a retry replays its first answer even when the request would now be refused; another body under the key is still a conflict", async () => {
  // The key is not looked up before the work (createOnce): a refusal looks it up instead.
  const editor = await server.createKey({ workspace: "idem-operator", scopes: ["directory:write"], rateLimitPerMinute: 1_000_000 });
  const office = { address: "1 Bay St", city: "Toronto", province: "ON", postalCode: "M5J 2R8" };
  const created = await post("/api/v1/directory/brokers", { name: "Retry Test Brokers", email: "b@retry.example", phone: "416-555-0101", insuranceLines: ["Auto"], languages: ["English"], locations: [office] }, undefined, editor);
  expect(created.status).toBe(201);
  const broker = ((await created.json()) as { data: { id: string; slug: string } }).data;
  // Published at once; with PostgreSQL the instance's replica has it within a second.
  const visible = async () => (await server.request(`/api/v1/brokers/${broker.slug}`, { key })).status === 200;
  expect(await eventually(visible)).toBe(true);
  const idem = newKey();
  const body = { ...lead, email: "named-broker@example.com", brokerSlug: broker.slug };
  const first = await post("/api/v1/leads", body, idem);
  expect(first.status).toBe(201);
  const firstText = await first.text();
  expect((await post(`/api/v1/directory/brokers/${broker.id}/unpublish`, { reason: "licence lapsed" }, undefined, editor)).status).toBe(200);
  expect(await eventually(async () => !(await visible()))).toBe(true);
  // A new lead naming it is refused now...
  expect((await post("/api/v1/leads", body, newKey())).status).toBe(422);
  // ...but the retry of the first gets the first answer.
  const again = await post("/api/v1/leads", body, idem);
  expect(again.status).toBe(201);
  expect(again.headers.get("idempotent-replayed")).toBe("true");
  expect(await again.text()).toBe(firstText);
  // Another request under the key that would be refused anyway is the conflict it is.
  const other = await post("/api/v1/leads", { ...body, email: "someone-else@example.com" }, idem);
  expect(other.status).toBe(422);
  expect(((await other.json()) as { code: string }).code).toBe("idempotency_conflict");
  expect(await leadsNamed("named-broker@example.com")).toBe(1);
});

test("a refused request spends no key: fixed and sent again with the same key, it is created", async () => {
  const idem = newKey();
  expect((await post("/api/v1/leads", { ...lead, email: "not an email" }, idem)).status).toBe(422);
  expect((await post("/api/v1/leads", { ...lead, email: "fixed@example.com" }, idem)).status).toBe(201);
});

test("tRPC: the Idempotency-Key header on a /trpc POST replays the first answer", async () => {
  const idem = newKey();
  const call = () =>
    server.request("/trpc/leads.create", {
      key,
      method: "POST",
      headers: { "Content-Type": "application/json", "Idempotency-Key": idem },
      body: JSON.stringify({ json: { ...lead, email: "trpc@example.com" } }),
    });
  const first = await call();
  expect(first.status).toBe(200);
  const again = await call();
  expect(again.headers.get("idempotent-replayed")).toBe("true");
  expect(await again.text()).toBe(await first.text());
  expect(await leadsNamed("trpc@example.com")).toBe(1);
});

test("MCP: create_lead and get_quote take an idempotencyKey argument and replay the first result", async () => {
  const idem = newKey();
  const call = (name: string, args: Record<string, unknown>) => postMcp(server, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }, { key });
  const args = { ...lead, email: "mcp@example.com", idempotencyKey: idem };
  const first = await call("create_lead", args);
  const again = await call("create_lead", args);
  expect(first.json.result.isError).toBeUndefined();
  expect(again.json.result.content).toEqual(first.json.result.content);
  expect(again.json.result._meta["broker-directory/idempotent-replayed"]).toBe(true);
  expect(await leadsNamed("mcp@example.com")).toBe(1);

  const quoteKey = newKey();
  const quote = await call("get_quote", { ...AUTO_QUOTE, idempotencyKey: quoteKey });
  const quoteAgain = await call("get_quote", { ...AUTO_QUOTE, idempotencyKey: quoteKey });
  expect(quoteAgain.json.result.structuredContent.quoteId).toBe(quote.json.result.structuredContent.quoteId);
  const conflict = await call("get_quote", { ...AUTO_QUOTE, province: "QC", postalCode: "H2X 1Y4", idempotencyKey: quoteKey });
  expect(conflict.json.result.isError).toBe(true);
  expect(conflict.json.result._meta["broker-directory/error"].code).toBe("idempotency_conflict");

  const list = await postMcp(server, { jsonrpc: "2.0", id: 2, method: "tools/list" }, { key });
  const schemaOf = (name: string) => list.json.result.tools.find((t: { name: string }) => t.name === name).inputSchema;
  expect(schemaOf("create_lead").properties.idempotencyKey.type).toBe("string");
  expect(schemaOf("get_quote").properties.idempotencyKey.maxLength).toBe(255);
  expect(schemaOf("get_quote").required).not.toContain("idempotencyKey");
  expect(schemaOf("search_brokers").properties.idempotencyKey).toBeUndefined();
});

test("a restart keeps the record: the reopened database replays the answer given before it", async () => {
  const dir = mkdtempSync(join(tmpdir(), "idempotency-restart-"));
  const databasePath = join(dir, "directory.db");
  const idem = newKey();
  const body = { ...lead, email: "restart@example.com" };
  const send = (target: TestServer, apiKey: string) =>
    target.request("/api/v1/leads", { key: apiKey, method: "POST", headers: { "Content-Type": "application/json", "Idempotency-Key": idem }, body: JSON.stringify(body) });
  try {
    const before = await startTestServer({ demo: false, databasePath });
    const apiKey = await before.createKey({ workspace: "restart" });
    const first = await (await send(before, apiKey)).text();
    await before.close();
    const after = await startTestServer({ demo: false, databasePath });
    try {
      const again = await send(after, apiKey);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(await again.text()).toBe(first);
      expect((await after.rows("SELECT id FROM leads WHERE email = ?", [body.email])).length).toBe(1);
    } finally {
      await after.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("key creation replays its answer, new key included, to the same API key only; the database holds that key sealed, never in the clear", async () => {
  const admin = await server.createKey({ workspace: "idem-keys", scopes: ["keys:manage", "brokers:read"], rateLimitPerMinute: 1_000 });
  const sibling = await server.createKey({ workspace: "idem-keys", scopes: ["keys:manage", "brokers:read"], rateLimitPerMinute: 1_000 });
  const idem = newKey();
  const body = { name: "crm sync", scopes: ["brokers:read"] };
  const first = await post("/api/v1/keys", body, idem, admin);
  expect(first.status).toBe(201);
  const firstText = await first.text();
  const made = (JSON.parse(firstText) as { key: string }).key;
  const again = await post("/api/v1/keys", body, idem, admin);
  expect(again.headers.get("idempotent-replayed")).toBe("true");
  expect(await again.text()).toBe(firstText);
  expect(await server.rows("SELECT id FROM api_keys WHERE name = 'crm sync'")).toHaveLength(1);
  // The made key works, and nowhere in the database is it written out.
  expect((await server.request("/api/v1/brokers?limit=1", { key: made })).status).toBe(200);
  const stored = await server.rows<{ answer: string }>("SELECT answer FROM idempotency_records WHERE key = ?", [idem]);
  expect(stored).toHaveLength(1);
  expect(stored[0]!.answer).not.toContain(made);
  expect(stored[0]!.answer).not.toContain(made.slice(4));
  // Another key of the workspace cannot open that answer: for key creation it is another request.
  const other = await post("/api/v1/keys", body, idem, sibling);
  expect(other.status).toBe(422);
  expect(((await other.json()) as { code: string }).code).toBe("idempotency_conflict");
  expect(await server.rows("SELECT id FROM api_keys WHERE name = 'crm sync'")).toHaveLength(1);
});

test("the OpenAPI document names the header on the routes that take it", async () => {
  const doc = (await (await server.request("/api/v1/openapi.json", { key })).json()) as { paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>> };
  const takes = (path: string, method = "post") => (doc.paths[path]![method]!.parameters ?? []).some((p) => p.name === "Idempotency-Key" && p.in === "header");
  expect(["/api/v1/leads", "/api/v1/embed/leads", "/api/v1/embed/quotes", "/api/v1/keys"].map((p) => takes(p))).toEqual([true, true, true, true]);
  expect(takes("/api/v1/policies/compare")).toBe(false);
});
