/**
 * Review pages read from the broker-clustered layout (migration 0008) answer exactly what the
 * documented orders say, for every sort, star filter, page and page size: each answer is
 * compared with a reference computed here from the stored rows. Ties on the creation time (and
 * on the rating) are many, ids are not in creation order, unpublished reviews and another
 * broker's reviews are interleaved, so any change in order, paging or filtering shows.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { abbreviateAuthorName } from "../../src/domain/authorName.ts";
import { REVIEW_SORTS, type ReviewSort } from "../../src/schemas/reviewParams.ts";
import { insertBroker, insertReview } from "../support/directoryFixtures.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
let key: string;
let brokerId: number;
let neighbourId: number;

interface Row { id: number; brokerId: number; rating: number; authorName: string; body: string; published: boolean; createdAt: number }
const rows: Row[] = [];

beforeAll(async () => {
  server = await startTestServer();
  key = await server.createKey({ rateLimitPerMinute: 1_000_000 });
  const db = server.app.services.db;
  brokerId = insertBroker(db, { name: "Ordered Reviews", slug: "ordered-reviews", province: "ON", city: "Ottawa" });
  neighbourId = insertBroker(db, { name: "Neighbour Reviews", slug: "neighbour-reviews", province: "ON", city: "Ottawa" });
  // 45 reviews over 9 distinct instants (so creation times tie five at a time), inserted in a
  // shuffled order so ids do not follow creation; every seventh unpublished; the neighbour's
  // reviews written in between.
  const order = Array.from({ length: 45 }, (_, i) => (i * 17) % 45);
  for (const n of order) {
    const row = { brokerId, rating: 1 + ((n * 7) % 5), authorName: `Author${n} Last${n}`, body: `Review ${n}`, published: n % 7 !== 3, createdAt: Date.UTC(2025, 0, 1 + (n % 9), 8, 0, 0, 5) };
    rows.push({ ...row, id: insertReview(db, row) });
    if (n % 4 === 0) insertReview(db, { brokerId: neighbourId, rating: 5, createdAt: row.createdAt });
  }
});
afterAll(() => server.close());

function expected(sort: ReviewSort, rating: number | undefined): Row[] {
  const newestFirst = (a: Row, b: Row) => b.createdAt - a.createdAt || b.id - a.id;
  const compare: Record<ReviewSort, (a: Row, b: Row) => number> = {
    newest: newestFirst,
    oldest: (a, b) => a.createdAt - b.createdAt || a.id - b.id,
    highest: (a, b) => b.rating - a.rating || newestFirst(a, b),
    lowest: (a, b) => a.rating - b.rating || newestFirst(a, b),
  };
  return rows.filter((r) => r.published && (rating === undefined || r.rating === rating)).sort(compare[sort]);
}

test("every sort, star filter, page and page size answers the reference page, in the same bytes", async () => {
  let compared = 0;
  for (const sort of [undefined, ...REVIEW_SORTS]) {
    for (const rating of [undefined, 1, 2, 3, 4, 5]) {
      for (const limit of [1, 4, 7, 20, 100]) {
        const all = expected(sort ?? "newest", rating);
        const pages = Math.max(1, Math.ceil(all.length / limit)) + 1; // and one page past the end
        for (let page = 1; page <= pages; page++) {
          const query = new URLSearchParams({ page: String(page), limit: String(limit) });
          if (sort) query.set("sort", sort);
          if (rating) query.set("rating", String(rating));
          const res = await server.request(`/api/v1/reviews/${brokerId}?${query}`, { key });
          expect(res.status).toBe(200);
          const reference = {
            data: all.slice((page - 1) * limit, page * limit).map((r) => ({
              id: String(r.id),
              brokerId: String(r.brokerId),
              rating: r.rating,
              title: "Test",
              content: r.body,
              authorName: abbreviateAuthorName(r.authorName),
              createdAt: new Date(r.createdAt).toISOString(),
            })),
            pagination: { page, limit, total: all.length, totalPages: Math.ceil(all.length / limit) },
          };
          expect(await res.text()).toBe(JSON.stringify(reference));
          compared++;
        }
      }
    }
  }
  expect(compared).toBeGreaterThan(300);
  // About 800 requests one after another: 2 s over SQLite, over 5 s over PostgreSQL + Redis on a loaded CI host.
}, 30_000);

test("the embed surface pages the same reviews in the same order", async () => {
  const res = await server.request(`/api/v1/embed/reviews?broker=ordered-reviews&sort=lowest&limit=7`, { key });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { data: { reviews: { id: string }[] } };
  expect(body.data.reviews.map((r) => r.id)).toEqual(expected("lowest", undefined).slice(0, 7).map((r) => String(r.id)));
});
