/**
 * Following leads up: a lead's page (quote, offers, broker, history), status changes appended
 * to the history (two at once both kept), the inbox filters and search, and workspace isolation
 * over REST and the console.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { consoleRequest, signIn, type ConsoleSession } from "../support/console.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
let key: string;
let otherKey: string;
let reader: string;
let withQuote: Lead;
let plain: Lead;
let session: ConsoleSession;
let otherSession: ConsoleSession;

interface HistoryEntry { status: string; note: string | null; actor: string; at: string }
interface Lead { id: string; status: string; name: string; source: string; history: HistoryEntry[]; quote: { quoteId: string; quotes: unknown[] } | null; broker: { slug: string; name: string } | null }

const send = (path: string, method: string, body?: unknown, as = key) =>
  server.request(path, { key: as, method, headers: body === undefined ? {} : { "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });

async function createLead(body: Record<string, unknown>, as = key, path = "/api/v1/leads"): Promise<Lead> {
  const response = await send(path, "POST", { email: "x@example.ca", phone: "416 555 0199", insuranceType: "Auto", ...body }, as);
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: Lead }).data;
}

beforeAll(async () => {
  server = await startTestServer();
  key = await server.createKey({ workspace: "acme", rateLimitPerMinute: 10_000 });
  otherKey = await server.createKey({ workspace: "globex", rateLimitPerMinute: 10_000 });
  reader = await server.createKey({ workspace: "acme", scopes: ["leads:read"] });
  const quote = await send("/api/v1/embed/quotes", "POST", { insuranceType: "Tenant", province: "ON", postalCode: "K1A 0B1", details: { contentsValue: 20_000, claimsLast5Years: 0 } });
  const quoteId = ((await quote.json()) as { data: { quoteId: string } }).data.quoteId;
  const slug = ((await (await send("/api/v1/brokers?limit=1", "GET")).json()) as { data: { slug: string }[] }).data[0]!.slug;
  withQuote = await createLead({ name: "Élodie Gagnon", email: "elodie@example.ca", insuranceType: "Tenant", quoteId, brokerSlug: slug });
  plain = await createLead({ name: "Sam Patel", email: "sam.patel@example.com", insuranceType: "Home" });
  await createLead({ name: "Widget Person", email: "w@example.ca" }, key, "/api/v1/embed/leads");
  session = await signIn(server, "acme");
  otherSession = await signIn(server, "globex");
}, 30_000);
afterAll(() => server.close());

describe("a lead's page", () => {
  test("GET /api/v1/leads/{id}: the lead, its quote with offers, its broker and its history", async () => {
    const response = await send(`/api/v1/leads/${withQuote.id}`, "GET", undefined, reader);
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: Lead };
    expect(data.name).toBe("Élodie Gagnon");
    expect(data.quote!.quotes.length).toBeGreaterThanOrEqual(3);
    expect(data.broker!.slug).toBeString();
    expect(data.history).toEqual([{ status: "new", note: null, actor: "rest", at: expect.any(String) }]);
  });

  test("unknown ids and another workspace's leads are 404, over REST and the console", async () => {
    expect((await send("/api/v1/leads/ld_nothing", "GET")).status).toBe(404);
    expect((await send(`/api/v1/leads/${plain.id}`, "GET", undefined, otherKey)).status).toBe(404);
    expect((await consoleRequest(server, otherSession, `/console/api/leads/${plain.id}`)).status).toBe(404);
    expect((await consoleRequest(server, session, `/console/api/leads/${plain.id}`)).status).toBe(200);
  });
});

describe("status changes are appended, never rewritten", () => {
  test("PATCH with a status and a note adds an entry and makes the status current", async () => {
    const response = await send(`/api/v1/leads/${plain.id}`, "PATCH", { status: "contacted", note: "Left a voicemail." });
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: Lead };
    expect(data.status).toBe("contacted");
    expect(data.history.map((h) => [h.status, h.note])).toEqual([["new", null], ["contacted", "Left a voicemail."]]);
    expect(data.history[1]!.actor).toMatch(/^key_/);
  });

  test("a note alone keeps the status; the console's changes say console", async () => {
    const response = await consoleRequest(server, session, `/console/api/leads/${plain.id}`, { method: "PATCH", body: { note: "Prefers e-mail." } });
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: Lead };
    expect(data.status).toBe("contacted");
    expect(data.history.at(-1)).toMatchObject({ status: "contacted", note: "Prefers e-mail.", actor: "console" });
  });

  test("two changes at once (two tabs) are both kept in the history", async () => {
    const before = ((await (await send(`/api/v1/leads/${plain.id}`, "GET")).json()) as { data: Lead }).data.history.length;
    const [a, b] = await Promise.all([
      consoleRequest(server, session, `/console/api/leads/${plain.id}`, { method: "PATCH", body: { status: "quoted", note: "tab one" } }),
      consoleRequest(server, session, `/console/api/leads/${plain.id}`, { method: "PATCH", body: { status: "won", note: "tab two" } }),
    ]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    const { data } = (await (await send(`/api/v1/leads/${plain.id}`, "GET")).json()) as { data: Lead };
    expect(data.history).toHaveLength(before + 2);
    expect(data.history.slice(-2).map((h) => h.note).sort()).toEqual(["tab one", "tab two"]);
    expect(data.status).toBe(data.history.at(-1)!.status);
  });

  const bad: [string, unknown, string][] = [
    ["an unknown status", { status: "closed" }, "status"],
    ["nothing to record", {}, ""],
    ["an unknown field", { status: "won", owner: "me" }, "owner"],
    ["a note too long", { note: "x".repeat(2_001) }, "note"],
    ["a note that is not text", { note: 5 }, "note"],
  ];
  for (const [what, body, path] of bad) {
    test(`PATCH with ${what} is a 422 on "${path}" and the history is unchanged`, async () => {
      const before = ((await (await send(`/api/v1/leads/${withQuote.id}`, "GET")).json()) as { data: Lead }).data.history.length;
      const response = await send(`/api/v1/leads/${withQuote.id}`, "PATCH", body);
      expect(response.status).toBe(422);
      const answer = (await response.json()) as { error: string; issues: { path: string }[] };
      expect(answer.issues.map((i) => i.path)).toContain(path);
      const after = ((await (await send(`/api/v1/leads/${withQuote.id}`, "GET")).json()) as { data: Lead }).data.history.length;
      expect(after).toBe(before);
    });
  }

  test("another workspace cannot change a lead (404), a read-only key cannot (403), an embed key cannot (403)", async () => {
    expect((await send(`/api/v1/leads/${withQuote.id}`, "PATCH", { status: "lost" }, otherKey)).status).toBe(404);
    expect((await consoleRequest(server, otherSession, `/console/api/leads/${withQuote.id}`, { method: "PATCH", body: { status: "lost" } })).status).toBe(404);
    expect((await send(`/api/v1/leads/${withQuote.id}`, "PATCH", { status: "lost" }, reader)).status).toBe(403);
    const embed = await server.createKey({ workspace: "acme", origins: ["https://blog.example"], scopes: ["leads:write"] });
    const viaEmbed = await server.request(`/api/v1/leads/${withQuote.id}`, {
      key: embed,
      method: "PATCH",
      headers: { "Content-Type": "application/json", Origin: "https://blog.example" },
      body: JSON.stringify({ status: "lost" }),
    });
    expect(viaEmbed.status).toBe(403);
    const { data } = (await (await send(`/api/v1/leads/${withQuote.id}`, "GET")).json()) as { data: Lead };
    expect(data.status).toBe("new");
  });
});

describe("the inbox: filters and search", () => {
  const names = async (query: string, as = key) => {
    const response = await send(`/api/v1/leads?${query}`, "GET", undefined, as);
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: { name: string }[] }).data.map((l) => l.name);
  };

  test("filters by status, insurance type and source; searches name and e-mail, ignoring case and accents", async () => {
    expect(await names("status=new&insuranceType=tenant")).toEqual(["Élodie Gagnon"]);
    expect(await names("source=embed")).toEqual(["Widget Person"]);
    expect(await names("q=PATEL")).toEqual(["Sam Patel"]);
    expect(await names("q=elodie%40")).toEqual(["Élodie Gagnon"]);
    expect(await names("q=%25")).toEqual([]); // literal text, no wildcards
    expect(await names("q=ELODIE%20gag")).toEqual(["Élodie Gagnon"]);
    expect(await names("q=%C3%A9lo&status=new")).toEqual(["Élodie Gagnon"]);
    expect(await names("status=")).toHaveLength(3); // empty means any
    expect(await names("")).toEqual(["Widget Person", "Sam Patel", "Élodie Gagnon"]);
  });

  test("another workspace's inbox holds none of them", async () => {
    expect(await names("", otherKey)).toEqual([]);
    const viaConsole = (await (await consoleRequest(server, otherSession, "/console/api/leads")).json()) as { data: { data: unknown[] } };
    expect(viaConsole.data.data).toEqual([]);
  });

  test("bad filters are 422 naming the field", async () => {
    for (const [query, field] of [["status=open", "status"], ["source=fax", "source"], ["insuranceType=spaceship", "insuranceType"], [`q=${"a".repeat(101)}`, "q"]]) {
      const response = await send(`/api/v1/leads?${query}`, "GET");
      expect(response.status).toBe(422);
      expect(((await response.json()) as { error: string }).error).toContain(field!);
    }
  });
});
