import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { brokers } from "../../db/schema.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
let key: string;
beforeAll(async () => {
  server = await startTestServer();
  key = await server.createKey({ rateLimitPerMinute: 1_000_000 });
});
afterAll(() => server.close());

const getJson = async (path: string, k = key) => {
  const res = await server.request(path, { key: k });
  return { status: res.status, body: (await res.json()) as { data: { slug: string }[]; pagination: { total: number }; error?: string } };
};

test("a repeated directory read answers the same, and a directory write is seen at once", async () => {
  const first = await getJson("/api/v1/brokers?province=PE&limit=100");
  const again = await getJson("/api/v1/brokers?province=PE&limit=100");
  expect(again).toEqual(first);
  const slug = first.body.data[0]!.slug;
  server.app.services.db.update(brokers).set({ published: false }).where(eq(brokers.slug, slug)).run();
  const after = await getJson("/api/v1/brokers?province=PE&limit=100");
  expect(after.body.pagination.total).toBe(first.body.pagination.total - 1);
  expect(after.body.data.map((b) => b.slug)).not.toContain(slug);
  expect((await getJson(`/api/v1/brokers/${slug}`)).status).toBe(404);
});

test("a cached answer is never served to a key without the route's scope", async () => {
  await getJson("/api/v1/brokers?province=NS");
  const reviewsOnly = await server.createKey({ scopes: ["reviews:read"] });
  const res = await getJson("/api/v1/brokers?province=NS", reviewsOnly);
  expect(res.status).toBe(403);
  expect(res.body.error).toContain("brokers:read");
});

test("cache hits still spend the key's rate limit", async () => {
  const limited = await server.createKey({ rateLimitPerMinute: 3 });
  const statuses: number[] = [];
  for (let i = 0; i < 5; i++) statuses.push((await server.request("/api/v1/brokers?province=NB", { key: limited })).status);
  expect(statuses).toEqual([200, 200, 200, 429, 429]);
});


test("the answer a cache keeps is sent from the bytes it keeps: first, second (kept) and third (hit) answers are byte for byte the same, accents included", async () => {
  // Québec brokers' answers hold non-ASCII text (cities, names): the kept bytes must be UTF-8 of the same text.
  const list = await getJson("/api/v1/brokers?province=QC&limit=100");
  const slug = list.body.data.find((b) => /[^\x00-\x7f]/.test(JSON.stringify(b)))?.slug ?? list.body.data[0]!.slug;
  const answers = [];
  for (let i = 0; i < 3; i++) {
    const res = await server.request(`/api/v1/brokers/${slug}`, { key });
    answers.push({ status: res.status, type: res.headers.get("content-type"), bytes: Buffer.from(await res.arrayBuffer()).toString("base64") });
  }
  expect(answers[0]!.status).toBe(200);
  expect(answers[1]).toEqual(answers[0]!);
  expect(answers[2]).toEqual(answers[0]!);
  expect(Buffer.from(answers[0]!.bytes, "base64").toString("utf8")).toContain(`"slug":"${slug}"`);
});
