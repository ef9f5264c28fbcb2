import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { restRoutes } from "../../src/adapters/rest/restRoutes.ts";
import { consoleRequest, signIn } from "../support/console.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { passesWithin } from "../support/eventually.ts";

/**
 * The directory's write API (issue 27 section 2) and the audit readers (section 3), through a
 * real server: scope directory:write (the CLI's to grant), brokers written as the import writes
 * them, publishing with reasons, review moderation moving the rating, every change on the public
 * reads within a second and on the broker's history.
 */

let server: TestServer;
/** The operator's key, made as the CLI makes one (keys create --scopes directory:write). */
let editor: string;
let editorKeyId: string;
/** A partner workspace's key with every default scope. */
let partner: string;

interface Failure { code: string; error: string; issues?: { path: string; message: string }[] }
interface Broker { id: string; slug: string; name: string; state: string; externalId: string | null; averageRating: number; reviewCount: number; locations: { postalCode: string; latitude: number; isPrimary: boolean }[] }
interface Review { id: string; state: string; content: string; hidden: { reason: string | null; note: string | null } | null }
interface Entry { actor: string; action: string; before: Record<string, unknown> | null; after: Record<string, unknown> | null; reason: string | null; reviewId: string | null }

const office = { address: "100 King St W", city: "Toronto", province: "ON", postalCode: "M5V 2T6" };
let serial = 0;
const newBroker = (extra: Record<string, unknown> = {}) => ({
  externalId: `crm-${++serial}`,
  name: `Lakeshore Test Brokers ${serial}`,
  email: "hello@lakeshore.example",
  phone: "416-555-0100",
  website: "https://lakeshore.example",
  description: "Auto and home insurance on the lake.",
  foundingYear: 1999,
  teamSize: "11-50",
  licenseNumber: "RIBO-123",
  insuranceLines: ["Auto", "Home"],
  languages: ["English", "French"],
  locations: [office],
  ...extra,
});

function send(method: string, path: string, body?: unknown, key = editor) {
  return server.request(path, { key, method, headers: body === undefined ? {} : { "Content-Type": "application/json" }, body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body) });
}
async function data<T>(res: Response, status = 200): Promise<T> {
  const body = (await res.json()) as { data: T };
  expect(res.status, JSON.stringify(body)).toBe(status);
  return body.data;
}
async function expect422(res: Response, path: string, fragment = "") {
  const body = (await res.json()) as Failure;
  expect(res.status, JSON.stringify(body)).toBe(422);
  expect(body.code).toBe("invalid_parameter");
  const issue = body.issues?.find((i) => i.path === path);
  expect(issue, JSON.stringify(body)).toBeDefined();
  expect(issue!.message).toContain(fragment);
}
const create = async (extra: Record<string, unknown> = {}) => data<Broker>(await send("POST", "/api/v1/directory/brokers", newBroker(extra)), 201);
const history = async (id: string, query = "") => ((await (await send("GET", `/api/v1/directory/brokers/${id}/history${query}`)).json()) as { data: Entry[]; pagination: { total: number } });

const publicDetail = (slug: string) => server.request(`/api/v1/brokers/${slug}`, { key: partner });

beforeAll(async () => {
  server = await startTestServer();
  const made = await server.app.services.keys.create({ workspace: "operator", scopes: ["directory:write", "keys:manage", "brokers:read"], rateLimitPerMinute: 1_000_000 }, Date.now());
  editor = made.key;
  editorKeyId = made.record.id;
  partner = await server.createKey({ workspace: "partner", rateLimitPerMinute: 1_000_000 });
});
afterAll(() => server.close());

describe("scope directory:write", () => {
  test("is never a default scope, and no workspace can grant it to itself through the keys API", async () => {
    const admin = await server.createKey({ workspace: "partner", scopes: ["brokers:read", "keys:manage"] });
    for (const key of [admin, editor]) {
      const res = await send("POST", "/api/v1/keys", { name: "wider", scopes: ["directory:write"] }, key);
      expect(res.status).toBe(403);
      expect(((await res.json()) as Failure).code).toBe("scope_not_grantable");
    }
  });

  test("every directory route refuses a partner's key (every default scope) with 403 scope_missing", async () => {
    const routes = restRoutes.filter((r) => r.path.startsWith("/api/v1/directory/"));
    expect(routes.length).toBe(14);
    for (const route of routes) {
      const path = route.path.replace(":id", "1").replace(":reviewId", "1");
      const res = await send(route.method, path, route.method === "GET" ? undefined : {}, partner);
      expect(res.status, `${route.method} ${path}`).toBe(403);
      expect(((await res.json()) as Failure).code).toBe("scope_missing");
    }
    // tRPC too.
    const res = await server.request("/trpc/directory.listBrokers", { key: partner });
    expect(res.status).toBe(403);
  });
});

describe("brokers", () => {
  test("a created broker is on the public detail and the search within a second, and on its history", async () => {
    const broker = await create({ reason: "signed up by phone" });
    expect(broker).toMatchObject({ state: "published", externalId: `crm-${serial}`, slug: `lakeshore-test-brokers-${serial}-toronto` });
    // Coordinates from the postal code's area, as the import gives them.
    expect(broker.locations[0]!.latitude).toBeGreaterThan(43);
    await passesWithin(async () => expect((await publicDetail(broker.slug)).status).toBe(200));
    await passesWithin(async () => {
      const found = (await (await server.request(`/api/v1/brokers?q=${encodeURIComponent(broker.name)}`, { key: partner })).json()) as { data: { slug: string }[] };
      expect(found.data.map((b) => b.slug)).toContain(broker.slug);
    });
    const { data: entries } = await history(broker.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: "created", before: null, reason: "signed up by phone" });
    // Who: the workspace and the key.
    expect(entries[0]!.actor).toMatch(new RegExp(`^key:ws_[0-9a-f]+:${editorKeyId}$`));
    expect(entries[0]!.after).toMatchObject({ name: broker.name, externalId: `crm-${serial}` });
  });

  test("each refused field is named in issues, with 422 invalid_parameter", async () => {
    const post = (body: unknown) => send("POST", "/api/v1/directory/brokers", body);
    await expect422(await post(newBroker({ name: undefined })), "name", "required");
    await expect422(await post(newBroker({ email: "not-an-email" })), "email");
    await expect422(await post(newBroker({ teamSize: "huge" })), "teamSize");
    await expect422(await post(newBroker({ nickname: "x" })), "nickname", "not a known field");
    await expect422(await post(newBroker({ locations: [{ ...office, province: "QC" }] })), "locations.0.postalCode", "Ontario");
    await expect422(await post(newBroker({ locations: [] })), "locations", "at least one");
    // Another broker's externalId or slug: refused, never taken over.
    const first = await create();
    await expect422(await post(newBroker({ externalId: first.externalId })), "externalId", "already");
    await expect422(await post(newBroker({ slug: first.slug })), "slug", "already");
  });

  test("PATCH changes the fields given, validated as a whole record; the public reads and the history follow", async () => {
    const broker = await create();
    const changed = await data<Broker>(await send("PATCH", `/api/v1/directory/brokers/${broker.id}`, { name: "Renamed Lakeshore", reason: "rebrand" }));
    expect(changed).toMatchObject({ name: "Renamed Lakeshore", slug: broker.slug, externalId: broker.externalId });
    await passesWithin(async () => expect(((await (await publicDetail(broker.slug)).json()) as { data: Broker }).data.name).toBe("Renamed Lakeshore"));
    const [entry] = (await history(broker.id)).data;
    expect(entry).toMatchObject({ action: "updated", before: { name: broker.name }, after: { name: "Renamed Lakeshore" }, reason: "rebrand" });
    // Unchanged: nothing written, nothing on record.
    await data<Broker>(await send("PATCH", `/api/v1/directory/brokers/${broker.id}`, { name: "Renamed Lakeshore" }));
    expect((await history(broker.id)).pagination.total).toBe(2);
    // Offices are replaced whole; a bad one is named.
    const moved = await data<Broker>(await send("PATCH", `/api/v1/directory/brokers/${broker.id}`, { locations: [{ address: "1 Main St", city: "Ottawa", province: "ON", postalCode: "K1P 1J1" }] }));
    expect(moved.locations.map((o) => o.postalCode)).toEqual(["K1P 1J1"]);
    await expect422(await send("PATCH", `/api/v1/directory/brokers/${broker.id}`, { website: "ftp://x" }), "website");
    await expect422(await send("PATCH", `/api/v1/directory/brokers/${broker.id}`, { published: false }), "published", "not a known field");
    const other = await create();
    await expect422(await send("PATCH", `/api/v1/directory/brokers/${broker.id}`, { externalId: other.externalId }), "externalId", "already");
  });

  test("unpublish (with a reason) and publish: off and on the public reads within a second, reasons on the history", async () => {
    // Facet counts follow too (the city facet of Yukon, with or without this broker).
    const yukon = async () =>
      ((await (await server.request("/api/v1/brokers?province=YT&facets=city&limit=1", { key: partner })).json()) as { facets: Record<string, { value: string; count: number }[]> }).facets.city!.find((c) => c.value === "Whitehorse")?.count ?? 0;
    const before = await yukon();
    const broker = await create({ locations: [{ address: "1 Main St", city: "Whitehorse", province: "YT", postalCode: "Y1A 1A1" }] });
    await passesWithin(async () => expect(await yukon()).toBe(before + 1));
    await expect422(await send("POST", `/api/v1/directory/brokers/${broker.id}/unpublish`, {}), "reason", "required");
    const off = await data<Broker>(await send("POST", `/api/v1/directory/brokers/${broker.id}/unpublish`, { reason: "licence lapsed" }));
    expect(off.state).toBe("unpublished");
    await passesWithin(async () => expect((await publicDetail(broker.slug)).status).toBe(404));
    await passesWithin(async () => expect(await yukon()).toBe(before));
    // Still read in any state, and listed with the filters.
    expect((await data<Broker>(await send("GET", `/api/v1/directory/brokers/${broker.id}`))).state).toBe("unpublished");
    const listed = (await (await send("GET", `/api/v1/directory/brokers?state=unpublished&externalId=${broker.externalId}`)).json()) as { data: Broker[] };
    expect(listed.data.map((b) => b.id)).toEqual([broker.id]);
    const none = (await (await send("GET", `/api/v1/directory/brokers?state=published&externalId=${broker.externalId}`)).json()) as { data: Broker[] };
    expect(none.data).toEqual([]);
    await data<Broker>(await send("POST", `/api/v1/directory/brokers/${broker.id}/publish`));
    await passesWithin(async () => expect((await publicDetail(broker.slug)).status).toBe(200));
    const entries = (await history(broker.id)).data;
    expect(entries.slice(0, 2).map((e) => [e.action, e.reason])).toEqual([["published", null], ["unpublished", "licence lapsed"]]);
    expect(entries[1]).toMatchObject({ before: { published: true }, after: { published: false } });
  });

  test("list: text search and pagination; unknown ids are 404 broker_not_found", async () => {
    const broker = await create({ name: "Zebulon Unique Assurance" });
    const found = (await (await send("GET", "/api/v1/directory/brokers?q=zebulon%20unique")).json()) as { data: Broker[]; pagination: { total: number } };
    expect(found.data.map((b) => b.id)).toEqual([broker.id]);
    const page = (await (await send("GET", "/api/v1/directory/brokers?limit=2&page=2")).json()) as { data: Broker[]; pagination: { page: number; limit: number } };
    expect(page.data).toHaveLength(2);
    expect(page.pagination).toMatchObject({ page: 2, limit: 2 });
    for (const path of ["/api/v1/directory/brokers/999999999", "/api/v1/directory/brokers/abc/history"]) {
      const res = await send("GET", path);
      expect(res.status).toBe(404);
      expect(((await res.json()) as Failure).code).toBe("broker_not_found");
    }
  });
});

describe("reviews", () => {
  test("add, hide with a reason, restore: the public reviews and the broker's rating follow within a second", async () => {
    const broker = await create();
    const addReview = (body: Record<string, unknown>) => send("POST", `/api/v1/directory/brokers/${broker.id}/reviews`, body);
    const good = await data<Review>(await addReview({ rating: 5, content: "Great service", authorName: "Ana" }), 201);
    const bad = await data<Review>(await addReview({ rating: 1, content: "Buy cheap pills", authorName: "Spammer", externalId: "rv-1" }), 201);
    await expect422(await addReview({ rating: 6, content: "x", authorName: "A" }), "rating");
    await expect422(await addReview({ rating: 4, content: "x", authorName: "A", externalId: "rv-1" }), "externalId", "already");
    const rating = async () => ((await (await publicDetail(broker.slug)).json()) as { data: Broker }).data;
    await passesWithin(async () => expect(await rating()).toMatchObject({ averageRating: 3, reviewCount: 2 }));

    await expect422(await send("POST", `/api/v1/directory/reviews/${bad.id}/hide`, { reason: "rude" }), "reason");
    await expect422(await send("POST", `/api/v1/directory/reviews/${bad.id}/hide`, { reason: "other" }), "note", "required");
    const hidden = await data<Review>(await send("POST", `/api/v1/directory/reviews/${bad.id}/hide`, { reason: "spam", note: "pharmacy link" }));
    expect(hidden).toMatchObject({ state: "hidden", content: "Buy cheap pills", hidden: { reason: "spam", note: "pharmacy link" } });
    await passesWithin(async () => expect(await rating()).toMatchObject({ averageRating: 5, reviewCount: 1 }));
    await passesWithin(async () => {
      const reviews = (await (await server.request(`/api/v1/reviews/${broker.id}`, { key: partner })).json()) as { data: { id: string }[] };
      expect(reviews.data.map((r) => r.id)).toEqual([good.id]);
    });
    // The operator still sees it, with why.
    const all = (await (await send("GET", `/api/v1/directory/brokers/${broker.id}/reviews`)).json()) as { data: Review[] };
    expect(all.data.map((r) => [r.id, r.state])).toContainEqual([bad.id, "hidden"]);

    const restored = await data<Review>(await send("POST", `/api/v1/directory/reviews/${bad.id}/restore`));
    expect(restored).toMatchObject({ state: "published", hidden: null });
    await passesWithin(async () => expect(await rating()).toMatchObject({ averageRating: 3, reviewCount: 2 }));

    const entries = (await history(broker.id)).data;
    expect(entries.slice(0, 2).map((e) => [e.action, e.reviewId, e.reason])).toEqual([["restored", bad.id, null], ["hidden", bad.id, "spam: pharmacy link"]]);
    expect(entries[1]).toMatchObject({ before: { published: true }, after: { published: false, reason: "spam", note: "pharmacy link" } });

    const missing = await send("POST", "/api/v1/directory/reviews/999999999/hide", { reason: "spam" });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as Failure).code).toBe("review_not_found");
  });

  test("history pages like the API's other lists", async () => {
    const broker = await create();
    for (const name of ["One", "Two", "Three"]) await data<Broker>(await send("PATCH", `/api/v1/directory/brokers/${broker.id}`, { description: name }));
    const page = await history(broker.id, "?limit=2&page=2");
    expect(page.pagination).toMatchObject({ total: 4 });
    expect(page.data.map((e) => e.action)).toEqual(["updated", "created"]);
  });
});

describe("the console", () => {
  test("a session of the operator's workspace edits the directory, on record as the console; a partner's session is refused", async () => {
    const broker = await create();
    const operator = await signIn(server, "operator");
    const renamed = await consoleRequest(server, operator, `/console/api/directory/brokers/${broker.id}`, { method: "PATCH", body: { name: "Console Renamed", reason: "typo" } });
    expect(renamed.status).toBe(200);
    const [entry] = (await history(broker.id)).data;
    expect(entry).toMatchObject({ action: "updated", reason: "typo", after: { name: "Console Renamed" } });
    expect(entry!.actor).toMatch(/^console:ws_[0-9a-f]+$/);
    const readBack = await consoleRequest(server, operator, `/console/api/directory/brokers/${broker.id}/history`);
    expect(readBack.status).toBe(200);

    const other = await signIn(server, "partner");
    const refused = await consoleRequest(server, other, `/console/api/directory/brokers/${broker.id}`);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as Failure).code).toBe("scope_missing");
    // Nor can a session grant the scope.
    const grant = await consoleRequest(server, other, "/console/api/keys", { method: "POST", body: { name: "sneaky", scopes: ["directory:write"] } });
    expect(grant.status).toBe(403);
  });
});

describe("bulk import", () => {
  test("records in a request are read, checked and written as the CLI's import writes a file", async () => {
    const records = [newBroker({ externalId: "bulk-1", name: "Bulk One Brokers" }), newBroker({ externalId: "bulk-2", name: "Bulk Two Brokers", email: "nope" })];
    const dry = await data<{ summary: Record<string, number>; rows: { line: number; outcome: string }[] }>(
      await send("POST", "/api/v1/directory/import", { kind: "brokers", records, dryRun: true }),
    );
    expect(dry.summary).toEqual({ created: 1, updated: 0, unchanged: 0, failed: 1 });
    expect((await (await send("GET", "/api/v1/directory/brokers?externalId=bulk-1")).json()) as { data: unknown[] }).toMatchObject({ data: [] });

    const done = await data<{ summary: Record<string, number>; rows: { line: number; outcome: string; id?: number; errors?: { field: string }[] }[] }>(
      await send("POST", "/api/v1/directory/import", { kind: "brokers", records, reason: "CRM sync" }),
    );
    expect(done.summary).toEqual({ created: 1, updated: 0, unchanged: 0, failed: 1 });
    expect(done.rows.map((r) => [r.line, r.outcome])).toEqual([[1, "created"], [2, "failed"]]);
    expect(done.rows[1]!.errors!.map((e) => e.field)).toEqual(["email"]);
    const [entry] = (await history(String(done.rows[0]!.id))).data;
    expect(entry).toMatchObject({ action: "created", reason: "CRM sync" });
    expect(entry!.actor).toMatch(/^key:ws_/);
    // Again: unchanged, nothing written.
    const again = await data<{ summary: Record<string, number> }>(await send("POST", "/api/v1/directory/import", { kind: "brokers", records: [records[0]] }));
    expect(again.summary).toMatchObject({ unchanged: 1 });
    await expect422(await send("POST", "/api/v1/directory/import", { kind: "carriers", records }), "kind");
  });
});
