/**
 * Editing a key without rolling it (keys.update: PATCH /api/v1/keys/{id}, the console's PATCH):
 * its name, origins and rate limit change, its secret does not, and admission sees the change at
 * the next request. Bounded as a roll: keys:manage, the key's scopes held, a raised limit within
 * the caller's own and the server's ceiling. And embed keys show only the scopes they can use.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { consoleRequest, signIn } from "../support/console.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
let manager: string;

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  manager = await server.createKey({ workspace: "acme", scopes: ["keys:manage", "brokers:read", "reviews:read", "quotes:write", "leads:write", "leads:read"], rateLimitPerMinute: 500 });
});
afterAll(() => server.close());

interface KeyView { id: string; name: string; prefix: string; kind: string; scopes: string[]; origins: string[] | null; rateLimitPerMinute: number; status: string }

const json = (key: string, path: string, method = "GET", body?: unknown, headers: Record<string, string> = {}) =>
  server.request(path, { key, method, headers: { ...headers, ...(body === undefined ? {} : { "Content-Type": "application/json" }) }, body: body === undefined ? undefined : JSON.stringify(body) });

async function made(body: Record<string, unknown>): Promise<{ key: string; data: KeyView }> {
  const response = await json(manager, "/api/v1/keys", "POST", body);
  expect(response.status).toBe(201);
  return (await response.json()) as { key: string; data: KeyView };
}

const patch = (key: string, id: string, body: unknown) => json(key, `/api/v1/keys/${id}`, "PATCH", body);
const embedFrom = (key: string, origin: string) => json(key, "/api/v1/embed/brokers?limit=1", "GET", undefined, { Origin: origin });

describe("PATCH /api/v1/keys/{id}", () => {
  test("name, origins and rate limit change in place: the same secret keeps working, from the new origin only", async () => {
    const embed = await made({ name: "blog", scopes: ["brokers:read"], origins: ["https://old.example"], rateLimitPerMinute: 50 });
    expect((await embedFrom(embed.key, "https://old.example")).status).toBe(200);
    const response = await patch(manager, embed.data.id, { name: "blog (new site)", origins: ["https://New.Example:443"], rateLimitPerMinute: 80 });
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: KeyView };
    expect(data).toMatchObject({ id: embed.data.id, name: "blog (new site)", origins: ["https://new.example"], rateLimitPerMinute: 80, status: "active", kind: "embed" });
    // Admission reads the change at the next request (keys_version moved): no restart, no roll.
    expect((await embedFrom(embed.key, "https://new.example")).status).toBe(200);
    expect((await embedFrom(embed.key, "https://old.example")).status).toBe(403);
    const listed = ((await (await json(manager, "/api/v1/keys")).json()) as { data: KeyView[] }).data;
    expect(listed.filter((k) => k.name.startsWith("blog"))).toHaveLength(1); // edited, not rolled
  });

  test("the rate limit takes effect at once", async () => {
    const server_ = await made({ name: "script", scopes: ["brokers:read"], rateLimitPerMinute: 100 });
    expect((await patch(manager, server_.data.id, { rateLimitPerMinute: 1 })).status).toBe(200);
    expect((await json(server_.key, "/api/v1/brokers?limit=1")).status).toBe(200);
    expect((await json(server_.key, "/api/v1/brokers?limit=1")).status).toBe(429);
  });

  const badInputs: [string, unknown, string][] = [
    ["nothing to change", {}, ""],
    ["an empty name", { name: "  " }, "name"],
    ["a rate limit of 0", { rateLimitPerMinute: 0 }, "rateLimitPerMinute"],
    ["an origin with a path", { origins: ["https://a.example/page"] }, "origins.0"],
    ["no origins at all", { origins: [] }, "origins"],
    ["an unknown field", { scopes: ["leads:read"] }, "scopes"],
  ];
  for (const [what, body, path] of badInputs) {
    test(`${what}: 422 on "${path}", nothing changed`, async () => {
      const embed = await made({ name: "untouched", scopes: ["brokers:read"], origins: ["https://a.example"] });
      const response = await patch(manager, embed.data.id, body);
      expect(response.status).toBe(422);
      const answer = (await response.json()) as { code: string; issues?: { path: string }[] };
      expect(answer.code).toBe("invalid_parameter");
      expect(answer.issues?.[0]?.path ?? "").toBe(path);
      const now = ((await (await json(manager, "/api/v1/keys")).json()) as { data: KeyView[] }).data.find((k) => k.id === embed.data.id)!;
      expect(now).toMatchObject({ name: "untouched", origins: ["https://a.example"] });
    });
  }

  test("a server key cannot gain origins (422): it would become a narrower key unseen", async () => {
    const plain = await made({ name: "server", scopes: ["brokers:read"] });
    const response = await patch(manager, plain.data.id, { origins: ["https://a.example"] });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { issues: { path: string }[] }).issues[0]!.path).toBe("origins");
  });

  test("without keys:manage: 403", async () => {
    const plain = await made({ name: "target", scopes: ["brokers:read"] });
    const response = await patch(await server.createKey({ workspace: "acme" }), plain.data.id, { name: "mine now" });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { code: string }).code).toBe("scope_missing");
  });

  test("a manager cannot raise a limit beyond its own (403), may lower one, and cannot edit a key wider than itself", async () => {
    const narrow = await made({ name: "narrow manager", scopes: ["keys:manage", "brokers:read"], rateLimitPerMinute: 20 });
    const target = await made({ name: "target", scopes: ["brokers:read"], rateLimitPerMinute: 10 });
    const raised = await patch(narrow.key, target.data.id, { rateLimitPerMinute: 21 });
    expect(raised.status).toBe(403);
    expect((await raised.json()) as { code: string; error: string }).toMatchObject({ code: "rate_limit_not_grantable", error: expect.stringContaining("20/min") });
    expect((await patch(narrow.key, target.data.id, { rateLimitPerMinute: 20 })).status).toBe(200);
    // Already above the caller's own: lowering it raises nothing.
    const busy = await made({ name: "busy", scopes: ["brokers:read"], rateLimitPerMinute: 400 });
    expect((await patch(narrow.key, busy.data.id, { rateLimitPerMinute: 300 })).status).toBe(200);
    const wide = await made({ name: "wide", scopes: ["leads:read"] });
    const refused = await patch(narrow.key, wide.data.id, { name: "renamed" });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe("scope_not_grantable");
  });

  test("nobody goes past the server's ceiling (KEY_RATE_LIMIT_CEILING, 10,000 by default)", async () => {
    const target = await made({ name: "target", scopes: ["brokers:read"] });
    const response = await patch(manager, target.data.id, { rateLimitPerMinute: 10_001 });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { code: string }).code).toBe("rate_limit_not_grantable");
  });

  test("a revoked key is a 409, another workspace's a 404", async () => {
    const gone = await made({ name: "gone", scopes: ["brokers:read"] });
    expect((await json(manager, `/api/v1/keys/${gone.data.id}/revoke`, "POST")).status).toBe(200);
    const response = await patch(manager, gone.data.id, { name: "back" });
    expect(response.status).toBe(409);
    expect(((await response.json()) as { code: string }).code).toBe("key_not_active");
    const globex = await server.createKey({ workspace: "globex", scopes: ["keys:manage", "brokers:read"] });
    const live = await made({ name: "acme's", scopes: ["brokers:read"] });
    expect((await patch(globex, live.data.id, { name: "globex's" })).status).toBe(404);
  });

  test("the console edits through the same procedure (PATCH /console/api/keys/{id}, CSRF checked)", async () => {
    const target = await made({ name: "console target", scopes: ["brokers:read"], origins: ["https://a.example"] });
    const session = await signIn(server, "acme");
    const response = await consoleRequest(server, session, `/console/api/keys/${target.data.id}`, { method: "PATCH", body: { name: "renamed in console", rateLimitPerMinute: 60 } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: KeyView }).data).toMatchObject({ name: "renamed in console", rateLimitPerMinute: 60 });
    const forged = await consoleRequest(server, session, `/console/api/keys/${target.data.id}`, { method: "PATCH", body: { name: "x" }, headers: { "X-CSRF-Token": "wrong" } });
    expect(forged.status).toBe(403);
  });
});

describe("scopes shown truthfully", () => {
  test("an embed key made without scopes gets the embed defaults, never leads:read", async () => {
    await server.createKey({ workspace: "acme", name: "defaulted widget", origins: ["https://w.example"] });
    const listed = ((await (await json(manager, "/api/v1/keys")).json()) as { data: KeyView[] }).data.find((k) => k.name === "defaulted widget")!;
    expect(listed.scopes).toEqual(["brokers:read", "reviews:read", "quotes:write", "leads:write"]);
  });

  test("an embed key stored with leads:read (made before) is listed without it: admission never honours it", async () => {
    const old = await server.createKey({ workspace: "acme", name: "old widget", origins: ["https://w.example"], scopes: ["brokers:read", "leads:read"] });
    const listed = ((await (await json(manager, "/api/v1/keys")).json()) as { data: KeyView[] }).data.find((k) => k.name === "old widget")!;
    expect(listed.scopes).toEqual(["brokers:read"]);
    expect((await json(old, "/api/v1/embed/brokers?limit=1", "GET", undefined, { Origin: "https://w.example" })).status).toBe(200);
  });
});

describe("the console's embed code", () => {
  test("names the widget's URL and hands a preview key that works on this origin but files no lead", async () => {
    const session = await signIn(server, "acme");
    const response = await consoleRequest(server, session, "/console/api/embed-preview");
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: { widgetUrl: string; previewKey: string } };
    expect(data.widgetUrl).toBe(`${server.url}/widget.js`);
    expect(data.previewKey).toMatch(/^brk_/);
    expect((await embedFrom(data.previewKey, server.url)).status).toBe(200);
    expect((await embedFrom(data.previewKey, "https://elsewhere.example")).status).toBe(403);
    const lead = await json(data.previewKey, "/api/v1/embed/leads", "POST", { name: "P", email: "p@example.ca", phone: "4165550123", insuranceType: "Auto" }, { Origin: server.url });
    expect(lead.status).toBe(403);
    // The preview key lives in a workspace of its own: the partner's key list never shows it.
    const listed = ((await (await json(manager, "/api/v1/keys")).json()) as { data: KeyView[] }).data;
    expect(listed.some((k) => data.previewKey.startsWith(k.prefix))).toBe(false);
    expect((await consoleRequest(server, session, "/console/api/embed-preview")).status).toBe(200);
  });
});
