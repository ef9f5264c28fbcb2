import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { QueuedReviewView } from "../../src/router/directory/directoryReviewQueue.ts";
import { consoleRequest, signIn } from "../support/console.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

/**
 * directory.reviewQueue (issue 27 section 4): reviews across the directory, newest first, in
 * every state, filtered by state, rating and broker, each with its broker's rating as it now
 * stands; REST with a directory:write key, the console for the operator's session only.
 */

let server: TestServer;
let editor: string;
let partner: string;

interface Page {
  data: QueuedReviewView[];
  pagination: { total: number; page: number; totalPages: number };
}

beforeAll(async () => {
  server = await startTestServer();
  editor = (await server.app.services.keys.create({ workspace: "operator", scopes: ["directory:write"], rateLimitPerMinute: 1_000_000 }, Date.now())).key;
  partner = await server.createKey({ workspace: "partner", rateLimitPerMinute: 1_000_000 });
});
afterAll(() => server.close());

async function queue(query = "", key = editor): Promise<Page> {
  const res = await server.request(`/api/v1/directory/reviews${query}`, { key });
  const body = (await res.json()) as Page;
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body;
}
const post = (path: string, body: unknown) => server.request(path, { key: editor, method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

describe("directory.reviewQueue", () => {
  test("newest first across the directory, every review of the demo counted", async () => {
    const page = await queue("?limit=50");
    expect(page.pagination.total).toBeGreaterThan(1_000);
    const times = page.data.map((r) => Date.parse(r.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(new Set(page.data.map((r) => r.broker.id)).size).toBeGreaterThan(1);
  });

  test("filters by rating, broker and state; hiding moves the broker's rating in the queue at once", async () => {
    const fives = await queue("?rating=5&limit=100");
    expect(fives.data.every((r) => r.rating === 5)).toBe(true);
    const target = fives.data[0]!;
    const ofBroker = await queue(`?broker=${target.broker.id}&limit=100`);
    expect(ofBroker.data.every((r) => r.broker.id === target.broker.id)).toBe(true);
    expect(ofBroker.pagination.total).toBe(target.broker.reviewCount);

    expect((await post(`/api/v1/directory/reviews/${target.id}/hide`, { reason: "other", note: "posted twice" })).status).toBe(200);
    const hidden = await queue(`?broker=${target.broker.id}&state=hidden`);
    expect(hidden.data.map((r) => r.id)).toContain(target.id);
    const shown = hidden.data.find((r) => r.id === target.id)!;
    expect(shown.hidden).toMatchObject({ reason: "other", note: "posted twice" });
    expect(shown.broker.reviewCount).toBe(target.broker.reviewCount - 1);
    expect((await queue(`?broker=${target.broker.id}&state=published&limit=100`)).data.map((r) => r.id)).not.toContain(target.id);

    expect((await post(`/api/v1/directory/reviews/${target.id}/restore`, {})).status).toBe(200);
    const restored = (await queue(`?broker=${target.broker.id}&limit=100`)).data.find((r) => r.id === target.id)!;
    expect({ state: restored.state, count: restored.broker.reviewCount, rating: restored.broker.averageRating }).toEqual({
      state: "published",
      count: target.broker.reviewCount,
      rating: target.broker.averageRating,
    });
  });

  test("bad filters are 422 naming them; an unknown broker is 404", async () => {
    for (const [query, field] of [["?rating=6", "rating"], ["?state=gone", "state"]] as const) {
      const res = await server.request(`/api/v1/directory/reviews${query}`, { key: editor });
      const body = (await res.json()) as { issues: { path: string }[] };
      expect(res.status).toBe(422);
      expect(body.issues.map((i) => i.path)).toContain(field);
    }
    const res = await server.request("/api/v1/directory/reviews?broker=999999", { key: editor });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { code: string }).code).toBe("broker_not_found");
  });

  test("a partner is refused 403 by key and by console session; the operator's session reads it", async () => {
    expect((await server.request("/api/v1/directory/reviews", { key: partner })).status).toBe(403);
    const partnerSession = await signIn(server, "partner");
    expect((await consoleRequest(server, partnerSession, "/console/api/directory/reviews")).status).toBe(403);
    const operatorSession = await signIn(server, "operator");
    const res = await consoleRequest(server, operatorSession, "/console/api/directory/reviews?rating=1");
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: Page }).data.data.every((r) => r.rating === 1)).toBe(true);
  });

  test("the console session says whether the workspace edits the directory", async () => {
    for (const [workspace, edits] of [["operator", true], ["partner", false]] as const) {
      const session = await signIn(server, workspace);
      const res = await consoleRequest(server, session, "/console/api/session");
      expect(((await res.json()) as { data: { editsDirectory: boolean } }).data.editsDirectory).toBe(edits);
    }
  });
});
