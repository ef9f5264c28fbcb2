import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server.ts";

/**
 * Issue 28 §2 on the directory's create routes (issue 27 §2): POST /api/v1/directory/brokers and
 * /brokers/{id}/reviews take an Idempotency-Key. A retry gets the first answer byte for byte and
 * creates nothing more; the same key with another body is a conflict; many at once make one.
 * The key is claimed in the same transaction as the broker or review (whose id that write numbers).
 */

let server: TestServer;
let editor: string;
let serial = 0;

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  editor = (await server.app.services.keys.create({ workspace: "operator", scopes: ["directory:write"], rateLimitPerMinute: 1_000_000 }, Date.now())).key;
});
afterAll(() => server.close());

const newKey = () => `dir-${++serial}-${crypto.randomUUID()}`;
const broker = (externalId: string) => ({
  externalId,
  name: `Harbourfront Brokers ${externalId}`,
  phone: "416-555-0100",
  insuranceLines: ["Auto", "Home"],
  locations: [{ address: "100 King St W", city: "Toronto", province: "ON", postalCode: "M5V 2T6" }],
});
const review = (externalId: string, rating = 5) => ({ externalId, rating, content: "Found us a better home policy.", authorName: "Chloé Tremblay", createdAt: "2026-01-15" });

function post(path: string, body: unknown, idempotencyKey?: string): Promise<Response> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (idempotencyKey !== undefined) headers["Idempotency-Key"] = idempotencyKey;
  return server.request(path, { key: editor, method: "POST", headers, body: JSON.stringify(body) });
}
const count = async (sql: string, params: string[]) => Number(((await server.rows(sql, params))[0] as { n: number | string }).n);
const brokersWith = (externalId: string) => count("SELECT count(*) AS n FROM brokers WHERE external_id = ?", [externalId]);
const reviewsWith = (externalId: string) => count("SELECT count(*) AS n FROM reviews WHERE external_id = ?", [externalId]);
const auditOf = (brokerExternalId: string) => count("SELECT count(*) AS n FROM directory_audit a JOIN brokers b ON b.id = a.broker_id WHERE b.external_id = ?", [brokerExternalId]);

async function createBroker(externalId: string): Promise<string> {
  const res = await post("/api/v1/directory/brokers", broker(externalId));
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { id: string } }).data.id;
}

test("a broker created again with the same key and body: the first answer byte for byte, Idempotent-Replayed, one broker, one history entry", async () => {
  const idem = newKey();
  const first = await post("/api/v1/directory/brokers", broker("idem-b1"), idem);
  expect(first.status).toBe(201);
  expect(first.headers.get("idempotent-replayed")).toBeNull();
  const firstText = await first.text();
  // The same body with its keys in another order is the same request.
  const again = await post("/api/v1/directory/brokers", Object.fromEntries(Object.entries(broker("idem-b1")).reverse()), idem);
  expect(again.status).toBe(201);
  expect(again.headers.get("idempotent-replayed")).toBe("true");
  expect(await again.text()).toBe(firstText);
  expect(await brokersWith("idem-b1")).toBe(1);
  expect(await auditOf("idem-b1")).toBe(1);
});

test("without a key a second POST is a new request: refused, as the externalId is taken", async () => {
  await createBroker("idem-b2");
  const res = await post("/api/v1/directory/brokers", broker("idem-b2"));
  expect(res.status).toBe(422);
  expect(await brokersWith("idem-b2")).toBe(1);
});

test("the same key with another broker is a 422 idempotency_conflict, and the other broker is not created", async () => {
  const idem = newKey();
  expect((await post("/api/v1/directory/brokers", broker("idem-b3"), idem)).status).toBe(201);
  const other = await post("/api/v1/directory/brokers", broker("idem-b3-other"), idem);
  expect(other.status).toBe(422);
  expect(((await other.json()) as { code: string }).code).toBe("idempotency_conflict");
  expect(await brokersWith("idem-b3-other")).toBe(0);
});

test("10 creates at once with one key make one broker; every answer is the same 201", async () => {
  const idem = newKey();
  const answers = await Promise.all(Array.from({ length: 10 }, () => post("/api/v1/directory/brokers", broker("idem-b4"), idem)));
  const texts = await Promise.all(answers.map((res) => res.text()));
  expect(answers.map((res) => res.status)).toEqual(Array(10).fill(201));
  expect(new Set(texts).size).toBe(1);
  expect(await brokersWith("idem-b4")).toBe(1);
  expect(await auditOf("idem-b4")).toBe(1);
});

test("a review added again with the same key: the first answer byte for byte, one review, the rating counted once", async () => {
  const id = await createBroker("idem-b5");
  const idem = newKey();
  const first = await post(`/api/v1/directory/brokers/${id}/reviews`, review("idem-r1", 4), idem);
  expect(first.status).toBe(201);
  const firstText = await first.text();
  const again = await post(`/api/v1/directory/brokers/${id}/reviews`, review("idem-r1", 4), idem);
  expect(again.status).toBe(201);
  expect(again.headers.get("idempotent-replayed")).toBe("true");
  expect(await again.text()).toBe(firstText);
  expect(await reviewsWith("idem-r1")).toBe(1);
  expect(await count("SELECT review_count AS n FROM brokers WHERE external_id = ?", ["idem-b5"])).toBe(1);
});

test("a review without an externalId, sent twice with one key, is added once (the key is all that tells a retry)", async () => {
  const id = await createBroker("idem-b6");
  const idem = newKey();
  const body = { rating: 3, content: "Fine.", authorName: "Sam Lee" };
  const answers = await Promise.all([1, 2, 3].map(() => post(`/api/v1/directory/brokers/${id}/reviews`, body, idem)));
  expect(answers.map((res) => res.status)).toEqual([201, 201, 201]);
  expect(new Set(await Promise.all(answers.map((res) => res.text()))).size).toBe(1);
  expect(await count("SELECT count(*) AS n FROM reviews r JOIN brokers b ON b.id = r.broker_id WHERE b.external_id = ?", ["idem-b6"])).toBe(1);
});

test("the same key on another broker's reviews is a conflict; nothing is added there", async () => {
  const [a, b] = [await createBroker("idem-b7"), await createBroker("idem-b8")];
  const idem = newKey();
  expect((await post(`/api/v1/directory/brokers/${a}/reviews`, review("idem-r2"), idem)).status).toBe(201);
  const other = await post(`/api/v1/directory/brokers/${b}/reviews`, review("idem-r2"), idem);
  expect(other.status).toBe(422);
  expect(((await other.json()) as { code: string }).code).toBe("idempotency_conflict");
  expect(await count("SELECT count(*) AS n FROM reviews r JOIN brokers b ON b.id = r.broker_id WHERE b.external_id = ?", ["idem-b8"])).toBe(0);
});

test("a refused create leaves the key free: fixed and sent again with it, it is created", async () => {
  const idem = newKey();
  const bad = await post("/api/v1/directory/brokers", { ...broker("idem-b9"), locations: [{ address: "1 Main St", city: "Montréal", province: "QC", postalCode: "M5V 2T6" }] }, idem);
  expect(bad.status).toBe(422);
  expect((await post("/api/v1/directory/brokers", broker("idem-b9"), idem)).status).toBe(201);
  expect(await brokersWith("idem-b9")).toBe(1);
});

test("OpenAPI names the Idempotency-Key header on both routes", async () => {
  const doc = (await (await server.request("/api/v1/openapi.json")).json()) as { paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>> };
  for (const path of ["/api/v1/directory/brokers", "/api/v1/directory/brokers/{id}/reviews"]) {
    const names = (doc.paths[path]?.post?.parameters ?? []).filter((p) => p.in === "header").map((p) => p.name);
    expect(names, path).toContain("Idempotency-Key");
  }
});
