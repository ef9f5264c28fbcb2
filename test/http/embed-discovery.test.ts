import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server.ts";

/** The directory widget's endpoint pages ("Show more") and takes the search's discovery parameters. */
let server: TestServer;
let key: string;
const ORIGIN = "https://partner.example";
beforeAll(async () => {
  server = await startTestServer();
  key = await server.createKey({ origins: [ORIGIN], rateLimitPerMinute: 1_000_000 });
});
afterAll(() => server.close());

async function embed(query: string) {
  const res = await server.request(`/api/v1/embed/brokers?${query}`, { key, headers: { Origin: ORIGIN } });
  return { status: res.status, body: (await res.json()) as { data: { slug: string; distanceKm?: number }[]; total: number; facets?: Record<string, unknown[]>; error?: string } };
}

test("page 2 continues page 1 and total stays the same", async () => {
  const first = await embed("province=ON&limit=5");
  const second = await embed("province=ON&limit=5&page=2");
  const both = await embed("province=ON&limit=10");
  expect([...first.body.data, ...second.body.data].map((b) => b.slug)).toEqual(both.body.data.map((b) => b.slug));
  expect(second.body.total).toBe(first.body.total);
});

test("near, sort=distance and facets, as in search", async () => {
  const { status, body } = await embed("near=H2X&sort=distance&facets=province,insuranceType&limit=6");
  expect(status).toBe(200);
  const distances = body.data.map((b) => b.distanceKm!);
  expect(distances).toEqual([...distances].sort((a, b) => a - b));
  expect(body.facets!.province).toEqual([expect.objectContaining({ value: "QC" })]);
  expect(body.facets!.insuranceType!.length).toBeGreaterThan(0);
});

test("bad discovery input is a 422 with CORS, like every embed answer", async () => {
  const res = await server.request("/api/v1/embed/brokers?sort=distance", { key, headers: { Origin: ORIGIN } });
  expect(res.status).toBe(422);
  expect(res.headers.get("access-control-allow-origin")).toBe(ORIGIN);
  expect(((await res.json()) as { error: string }).error).toStartWith("sort: distance needs near");
  expect((await embed("page=0")).status).toBe(422);
});
