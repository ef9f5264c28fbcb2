import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
let keyA: string;
let clock = Date.parse("2026-05-01T09:00:00.000Z");

beforeAll(async () => {
  server = await startTestServer();
  server.app.services.now = () => clock;
  keyA = await server.createKey({ workspace: "leads-a", rateLimitPerMinute: 10_000 });
});
afterAll(() => server.close());

interface Lead { id: string; name: string; email: string; phone: string; insuranceType: string; notes: string; brokerSlug: string | null; quoteId: string | null; source: string; status: string; createdAt: string }
interface Failure { error: string; issues?: { path: string; message: string }[] }

const lead = { name: "Marie Tremblay", email: "marie@example.ca", phone: "(416) 555-0199", insuranceType: "Auto" };

function post(path: string, body: unknown, key = keyA, headers: Record<string, string> = {}) {
  return server.request(path, { key, method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
}

async function expect422(res: Response, path: string, fragment: string) {
  expect(res.status).toBe(422);
  const body = (await res.json()) as Failure;
  const issue = body.issues?.find((i) => i.path === path);
  expect(issue, JSON.stringify(body)).toBeDefined();
  expect(issue!.message).toContain(fragment);
}

async function publishedSlug(): Promise<string> {
  const res = await server.request("/api/v1/brokers?limit=1", { key: keyA });
  return ((await res.json()) as { data: { slug: string }[] }).data[0]!.slug;
}

describe("POST /api/v1/leads", () => {
  test("201 with the stored lead: E.164 phone, status new, source rest", async () => {
    const res = await post("/api/v1/leads", { ...lead, notes: "  Call after 5 pm.  " });
    expect(res.status).toBe(201);
    const { data } = (await res.json()) as { data: Lead };
    expect(data).toEqual({
      id: data.id,
      name: "Marie Tremblay",
      email: "marie@example.ca",
      phone: "+14165550199",
      insuranceType: "Auto",
      notes: "Call after 5 pm.",
      brokerSlug: null,
      quoteId: null,
      source: "rest",
      status: "new",
      createdAt: "2026-05-01T09:00:00.000Z",
    });
    expect(data.id).toMatch(/^ld_[0-9a-f]{32}$/);
  });

  test.each(["(416) 555-0199", "416.555.0199", "+1 416 555 0199", "1-416-555-0199"])("phone %s is stored as +14165550199", async (phone) => {
    const res = await post("/api/v1/leads", { ...lead, phone });
    expect(((await res.json()) as { data: Lead }).data.phone).toBe("+14165550199");
  });

  test.each([
    ["555-0199", "must have 10 digits"],
    ["+44 20 7946 0958", "North American number (+1)"],
    ["call me", "digits only"],
    ["(016) 555-0199", "cannot start with 0 or 1"],
  ])("phone %s is refused", async (phone, fragment) => {
    await expect422(await post("/api/v1/leads", { ...lead, phone }), "phone", fragment);
  });

  test.each([["marie"], ["marie@"], ["@example.ca"], ["marie @example.ca"]])("email %s is refused", async (email) => {
    await expect422(await post("/api/v1/leads", { ...lead, email }), "email", "must be a valid email address");
  });

  test("notes: 2,000 characters are fine, 2,001 are not", async () => {
    expect((await post("/api/v1/leads", { ...lead, notes: "n".repeat(2000) })).status).toBe(201);
    await expect422(await post("/api/v1/leads", { ...lead, notes: "n".repeat(2001) }), "notes", "must be at most 2,000 characters");
  });

  test.each(["name", "email", "phone", "insuranceType"])("missing %s → 422 is required", async (field) => {
    const body: Record<string, unknown> = { ...lead };
    delete body[field];
    await expect422(await post("/api/v1/leads", body), field, "is required");
  });

  test("insuranceType: any directory line, case-insensitive, written the canonical way", async () => {
    const res = await post("/api/v1/leads", { ...lead, insuranceType: "real estate" });
    expect(((await res.json()) as { data: Lead }).data.insuranceType).toBe("Real Estate");
    await expect422(await post("/api/v1/leads", { ...lead, insuranceType: "Spaceship" }), "insuranceType", "is not an insurance line we know");
  });

  test("brokerSlug must name a published broker (422 otherwise); null and empty mean none", async () => {
    const slug = await publishedSlug();
    const linked = await post("/api/v1/leads", { ...lead, brokerSlug: slug });
    expect(((await linked.json()) as { data: Lead }).data.brokerSlug).toBe(slug);
    await expect422(await post("/api/v1/leads", { ...lead, brokerSlug: "no-such-broker" }), "brokerSlug", 'No published broker has the slug "no-such-broker"');
    const none = await post("/api/v1/leads", { ...lead, brokerSlug: null, notes: "", quoteId: null });
    expect((await none.json()) as { data: Lead }).toMatchObject({ data: { brokerSlug: null, notes: "", quoteId: null } });
  });

  test("quoteId links a quote of the same workspace; another workspace's quote is 422", async () => {
    const quote = await post("/api/v1/embed/quotes", { insuranceType: "Tenant", province: "ON", postalCode: "K1A 0B1", details: { contentsValue: 20_000, claimsLast5Years: 0 } });
    const { quoteId } = ((await quote.json()) as { data: { quoteId: string } }).data;
    const linked = await post("/api/v1/leads", { ...lead, quoteId });
    expect(linked.status).toBe(201);
    expect(((await linked.json()) as { data: Lead }).data.quoteId).toBe(quoteId);
    const keyB = await server.createKey({ workspace: "leads-b" });
    await expect422(await post("/api/v1/leads", { ...lead, quoteId }, keyB), "quoteId", `No quote with the id "${quoteId}" exists in this workspace.`);
  });

  test("unknown fields are named", async () => {
    await expect422(await post("/api/v1/leads", { ...lead, phoneNumber: "x" }), "phoneNumber", "is not a known field");
  });

  test("415, 413 and malformed JSON", async () => {
    const form = await server.request("/api/v1/leads", { key: keyA, method: "POST", headers: { "Content-Type": "text/plain" }, body: "hi" });
    expect(form.status).toBe(415);
    expect(((await form.json()) as Failure).error).toContain("application/json");
    const big = await post("/api/v1/leads", { ...lead, notes: "x".repeat(70_000) });
    expect(big.status).toBe(413);
    const broken = await post("/api/v1/leads", "{name:");
    expect(broken.status).toBe(422);
    expect(((await broken.json()) as Failure).error).toStartWith("The body is not valid JSON");
  });

  test("leads:write is needed", async () => {
    const reader = await server.createKey({ workspace: "leads-a", scopes: ["leads:read"] });
    const res = await post("/api/v1/leads", lead, reader);
    expect(res.status).toBe(403);
    expect(((await res.json()) as Failure).error).toContain("leads:write");
  });
});

describe("POST /api/v1/embed/leads", () => {
  test("an embed key from its origin creates a lead with source embed", async () => {
    const embedKey = await server.createKey({ workspace: "leads-a", origins: ["https://partner.example"] });
    const res = await post("/api/v1/embed/leads", lead, embedKey, { Origin: "https://partner.example" });
    expect(res.status).toBe(201);
    expect(res.headers.get("access-control-allow-origin")).toBe("https://partner.example");
    expect(((await res.json()) as { data: Lead }).data).toMatchObject({ source: "embed", status: "new", phone: "+14165550199" });
  });
});

describe("GET /api/v1/leads", () => {
  test("the workspace's own leads only, newest first, paginated; another workspace sees none of them", async () => {
    const keyC = await server.createKey({ workspace: "leads-c" });
    const keyD = await server.createKey({ workspace: "leads-d" });
    const saved = clock;
    const names: string[] = [];
    try {
      for (let i = 0; i < 5; i++) {
        clock = saved + i * 1000;
        names.push(`Person ${i}`);
        expect((await post("/api/v1/leads", { ...lead, name: `Person ${i}` }, keyC)).status).toBe(201);
      }
      // Two in the same millisecond: the later one is listed first.
      expect((await post("/api/v1/leads", { ...lead, name: "Person 5" }, keyC)).status).toBe(201);
      names.push("Person 5");
    } finally {
      clock = saved;
    }
    expect((await post("/api/v1/leads", { ...lead, name: "Someone of D" }, keyD)).status).toBe(201);

    const page1 = await server.request("/api/v1/leads?page=1&limit=4", { key: keyC });
    expect(page1.status).toBe(200);
    const body1 = (await page1.json()) as { data: Lead[]; pagination: object };
    expect(body1.data.map((l) => l.name)).toEqual(["Person 5", "Person 4", "Person 3", "Person 2"]);
    expect(body1.pagination).toEqual({ page: 1, limit: 4, total: 6, totalPages: 2 });
    const body2 = (await (await server.request("/api/v1/leads?page=2&limit=4", { key: keyC })).json()) as { data: Lead[] };
    expect(body2.data.map((l) => l.name)).toEqual(["Person 1", "Person 0"]);

    const other = (await (await server.request("/api/v1/leads?limit=100", { key: keyD })).json()) as { data: Lead[]; pagination: { total: number } };
    expect(other.data.map((l) => l.name)).toEqual(["Someone of D"]);
    expect(other.pagination.total).toBe(1);
  });

  test("paging parameters are validated", async () => {
    const res = await server.request("/api/v1/leads?limit=500", { key: keyA });
    expect(res.status).toBe(422);
    expect(((await res.json()) as Failure).error).toContain("limit: must be a whole number from 1 to 100");
  });

  test("leads:read is needed; embed keys never have it", async () => {
    const writer = await server.createKey({ scopes: ["leads:write"] });
    const res = await server.request("/api/v1/leads", { key: writer });
    expect(res.status).toBe(403);
    expect(((await res.json()) as Failure).error).toContain("leads:read");
    const embedKey = await server.createKey({ origins: ["https://partner.example"], scopes: ["leads:read", "leads:write"] });
    const embed = await server.request("/api/v1/leads", { key: embedKey, headers: { Origin: "https://partner.example" } });
    expect(embed.status).toBe(403);
  });
});

// PostgreSQL cannot store U+0000 (SQLite can): writes refuse it on both, lookups with it find nothing.
describe("the NUL character", () => {
  test.each([["name", { ...lead, name: "Marie\u0000 Tremblay" }], ["notes", { ...lead, notes: "call\u0000me" }]] as const)(
    "in %s: 422 naming the field, nothing stored",
    async (field, body) => {
      const total = async () => ((await (await server.request("/api/v1/leads?limit=1", { key: keyA })).json()) as { pagination: { total: number } }).pagination.total;
      const before = await total();
      const res = await post("/api/v1/leads", body);
      expect(res.status).toBe(422);
      expect(((await res.json()) as Failure).error).toBe(`${field}: must not contain the NUL character (U+0000). Remove it and send again.`);
      expect(await total()).toBe(before);
    },
  );

  // A NUL anywhere in the path is refused by the front door (rawTarget.ts) before any lookup.
  test("a lead or quote id with one is refused with 400, never looked up", async () => {
    for (const path of ["/api/v1/leads/ld_%00", "/api/v1/embed/quotes/%00"]) {
      const res = await server.request(path, { key: keyA });
      expect(res.status).toBe(400);
      expect(((await res.json()) as Failure).error).toContain("NUL");
    }
  });
});
