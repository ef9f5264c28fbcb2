/**
 * A broker's detail (REST and the widget's profile) is serialized by ratedAnswerJson, which
 * writes the rating's distribution by hand so the rest stays on the engine's fast path. Its
 * bytes must be JSON.stringify's, for every demo broker, for text that imitates the stand-in it
 * looks for, and when the rating is not shaped as it expects.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { brokers } from "../../db/schema.ts";
import { ratedAnswerJson } from "../../src/schemas/ratedAnswerJson.ts";
import type { BrokerDetail } from "../../src/schemas/broker.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const PARTNER = "https://partner.example";
let server: TestServer;
let key: string;
let embedKey: string;
let slugs: string[];

beforeAll(async () => {
  server = await startTestServer();
  key = await server.createKey({ rateLimitPerMinute: 1_000_000 });
  embedKey = await server.createKey({ workspace: "widget", origins: [PARTNER], scopes: ["brokers:read"], rateLimitPerMinute: 1_000_000 });
  const db = server.app.services.db;
  slugs = db.select({ slug: brokers.slug }).from(brokers).where(eq(brokers.published, true)).all().map((b) => b.slug);
});
afterAll(() => server.close());

function detailOf(slug: string): BrokerDetail {
  const detail = server.app.services.brokers.findBySlug(slug);
  if (!detail) throw new Error(`no published broker ${slug}`);
  return detail;
}

test("every demo broker's detail is sent as JSON.stringify writes it, its star counts included", async () => {
  expect(slugs.length).toBeGreaterThan(250);
  let rated = 0;
  for (const slug of slugs) {
    const detail = detailOf(slug);
    expect(ratedAnswerJson(detail)).toBe(JSON.stringify(detail));
    if (detail.rating.totalReviews > 0) rated++;
  }
  expect(rated).toBeGreaterThan(100);
  for (const slug of slugs.slice(0, 40)) {
    const res = await server.request(`/api/v1/brokers/${slug}`, { key });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(JSON.stringify({ data: detailOf(slug) }));
  }
});

test("the widget's profile carries the same rating, written the same way", async () => {
  for (const slug of slugs.slice(0, 20)) {
    const res = await server.request(`/api/v1/embed/brokers/${slug}`, { key: embedKey, headers: { Origin: PARTNER } });
    expect(res.status).toBe(200);
    const text = await res.text();
    const { data } = JSON.parse(text) as { data: BrokerDetail };
    expect(text).toBe(JSON.stringify({ data }));
    expect(data.rating).toEqual(detailOf(slug).rating);
  }
});

test("text that imitates the stand-in, quotes, backslashes and text beyond Latin-1 change nothing", () => {
  const detail = detailOf(slugs[0]!);
  const hostile: BrokerDetail = {
    ...detail,
    name: '"distribution":0}',
    description: 'a \\"distribution":0} \\\\"distribution":0} ",\n"distribution":0} Ωμέγα 🏠',
    website: '"distribution":{"1":9}',
    rating: { ...detail.rating, distribution: { "1": 0, "2": 17, "3": 0, "4": 1_000_000, "5": 3 } },
  };
  expect(ratedAnswerJson(hostile)).toBe(JSON.stringify(hostile));
  expect(JSON.parse(ratedAnswerJson(hostile))).toEqual(hostile);
});

test("a rating with members after its distribution is written the plain way, the same bytes", () => {
  const detail = detailOf(slugs[1]!);
  const extended = { ...detail, rating: { ...detail.rating, distribution: { ...detail.rating.distribution }, note: "x" } };
  expect(ratedAnswerJson(extended)).toBe(JSON.stringify(extended));
});
