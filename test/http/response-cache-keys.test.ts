import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eventually } from "../support/eventually.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
let key: string;
beforeAll(async () => {
  server = await startTestServer();
  key = await server.createKey({ rateLimitPerMinute: 1_000_000 });
  // Search pages are written from rendered list items once the directory has them (asking starts
  // the rendering): waited for here, so that no search below goes one path and then the other.
  expect(await eventually(() => server.app.services.brokers.renderedSearch({ sort: "name" }, 1, 1, "", () => "") !== undefined, 5_000)).toBe(true);
});
afterAll(() => server.close());

const responseEntries = () => server.app.services.caches.stats().find((s) => s.name === "rest-responses")!.entries;
// Searches, details and first review pages the directory holds rendered are kept, when asked
// again soon, in a cache of their own in front (see restHandler); the others in the response cache.
const keptEntries = () => responseEntries() + server.app.services.caches.stats().find((s) => s.name === "rest-rendered-hot")!.entries;
const get = async (path: string, host?: string) => {
  const res = await server.request(path, { key, headers: host ? { Host: host } : {} });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe("the response cache keys on the route and its parsed input", () => {
  test("ignored parameters, parameter order, defaults and a rotated Host make no new entries", async () => {
    const first = await get("/api/v1/brokers?province=ON&limit=20");
    await get("/api/v1/brokers?province=ON&limit=20"); // kept from its second request on
    const before = keptEntries();
    const variants = [
      "/api/v1/brokers?province=ON",
      "/api/v1/brokers?limit=20&province=ON&page=1",
      "/api/v1/brokers?province=ON&province=QC",
      "/api/v1/brokers?province=%20ON%20",
      ...Array.from({ length: 50 }, (_, i) => `/api/v1/brokers?province=ON&x=${i}${"y".repeat(2_000)}`),
    ];
    for (const path of variants) expect(await get(path)).toEqual(first);
    for (let i = 0; i < 50; i++) expect(await get("/api/v1/brokers?province=ON", `rotated-${i}.example:8080`)).toEqual(first);
    expect(keptEntries()).toBe(before);
  });

  test("different inputs are different entries", async () => {
    const before = keptEntries();
    const on = await get("/api/v1/brokers?province=ON&limit=3");
    const qc = await get("/api/v1/brokers?province=QC&limit=3");
    expect(on.body).not.toEqual(qc.body);
    expect(keptEntries()).toBe(before); // each asked once: nothing kept yet
    expect(await get("/api/v1/brokers?province=ON&limit=3")).toEqual(on);
    expect(await get("/api/v1/brokers?province=QC&limit=3")).toEqual(qc);
    expect(keptEntries()).toBe(before + 2);
  });

  test("an answer asked once is not kept; asked again, it is kept; a flood of one-off searches keeps nothing", async () => {
    const before = keptEntries();
    for (let i = 0; i < 200; i++) expect((await get(`/api/v1/brokers?q=once${i}`)).status).toBe(200);
    expect(keptEntries()).toBe(before);
    for (let i = 0; i < 3; i++) await get("/api/v1/brokers?q=twice");
    expect(keptEntries()).toBe(before + 1);
  });

  test("an answer that holds the base URL follows the Host it was asked with", async () => {
    const photo = (body: Record<string, unknown>) => (body.data as { photoUrl: string }[])[0]!.photoUrl;
    const a = await get("/api/v1/embed/brokers?province=ON&limit=1", "a.example:8080");
    const b = await get("/api/v1/embed/brokers?province=ON&limit=1", "b.example:8080");
    const a2 = await get("/api/v1/embed/brokers?province=ON&limit=1", "a.example:8080");
    expect(photo(a.body).startsWith("http://a.example:8080/")).toBe(true);
    expect(photo(b.body).startsWith("http://b.example:8080/")).toBe(true);
    expect(a2).toEqual(a);
  });

  test("a URL without a query string is keyed by its path: no entry in the URL-key cache, kept from its second request, unknown brokers never kept", async () => {
    const keyEntries = () => server.app.services.caches.stats().find((s) => s.name === "rest-cache-keys")!.entries;
    const { slug } = ((await get("/api/v1/brokers?province=NS&limit=1")).body.data as { slug: string }[])[0]!;
    const id = ((await get("/api/v1/brokers?province=NS&limit=1")).body.data as { id: string }[])[0]!.id;
    // Any detail asked for starts the rendering of the index's details; this test waits for it.
    await get("/api/v1/brokers/no-such-broker-anywhere");
    expect(await eventually(() => server.app.services.brokers.renderedDetail(slug) !== undefined, 5_000)).toBe(true);
    const keysBefore = keyEntries();
    const before = keptEntries();
    const detail = await get(`/api/v1/brokers/${slug}`);
    expect(detail.status).toBe(200);
    expect(keptEntries()).toBe(before); // asked once: not kept
    expect(await get(`/api/v1/brokers/${slug}`)).toEqual(detail);
    expect(keptEntries()).toBe(before + 1);
    expect(await get(`/api/v1/brokers/${slug}`)).toEqual(detail); // a hit, the same answer
    const reviews = await get(`/api/v1/reviews/${id}`); // read from SQLite, its text kept by the directory
    expect(await get(`/api/v1/reviews/${id}`)).toEqual(reviews); // from that text: a first offer
    expect(await get(`/api/v1/reviews/${id}`)).toEqual(reviews); // a second: kept
    // The same input with a query string is parsed as before and answers the same.
    expect(await get(`/api/v1/reviews/${id}?page=1`)).toEqual(reviews);
    expect(keptEntries()).toBe(before + 2);
    for (let i = 0; i < 3; i++) expect((await get("/api/v1/brokers/no-such-broker-anywhere")).status).toBe(404);
    for (let i = 0; i < 3; i++) expect((await get("/api/v1/reviews/not-an-id")).status).toBe(404);
    expect(keptEntries()).toBe(before + 2);
    expect(keyEntries()).toBe(keysBefore); // query-less URLs make none (the one with a query was asked once: not kept yet)
  });

  test("invalid input is never cached and still answers 422", async () => {
    const before = keptEntries();
    for (let i = 0; i < 5; i++) expect((await get(`/api/v1/brokers?limit=${1000 + i}`)).status).toBe(422);
    expect(keptEntries()).toBe(before);
  });
});

describe("with PUBLIC_URL", () => {
  test("every Host gets the public URL, and one entry", async () => {
    const pub = await startTestServer({ app: { publicUrl: "https://directory.example" } });
    try {
      const k = await pub.createKey({ rateLimitPerMinute: 1_000_000 });
      const urls = new Set<string>();
      for (let i = 0; i < 20; i++) {
        const res = await pub.request("/api/v1/embed/brokers?province=ON&limit=1", { key: k, headers: { Host: `h${i}.example` } });
        urls.add(((await res.json()) as { data: { photoUrl: string }[] }).data[0]!.photoUrl.split("/api/")[0]!);
      }
      expect([...urls]).toEqual(["https://directory.example"]);
      // Kept at its second request; the eighteen others were served from it, under one entry.
      expect(pub.app.services.caches.stats().find((s) => s.name === "rest-responses")!.entries).toBe(1);
    } finally {
      await pub.close();
    }
  });
});
