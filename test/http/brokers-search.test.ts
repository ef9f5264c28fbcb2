import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PROVINCES } from "../../src/domain/provinces.ts";
import { foldText } from "../../src/domain/text.ts";
import { insertBroker } from "../support/directoryFixtures.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
let key: string;

interface ListBody {
  data: { id: number; name: string; slug: string; description: string; province: string; city: string; averageRating: number | null; reviewCount: number }[];
  pagination: { page: number; limit: number; total: number; totalPages: number };
}

async function search(query: string): Promise<{ status: number; body: ListBody & { error?: string } }> {
  const res = await server.request(`/api/v1/brokers${query}`, { key });
  return { status: res.status, body: (await res.json()) as ListBody & { error?: string } };
}

beforeAll(async () => {
  server = await startTestServer();
  key = await server.createKey({ rateLimitPerMinute: 1_000_000 });
  const db = server.app.services.db;
  insertBroker(db, { name: "Zyxel Unpublished Brokers", slug: "zyxel-unpublished", province: "ON", city: "Toronto", published: false, description: "zyxelword hidden" });
  insertBroker(db, { name: "Écureuil Assurances", slug: "ecureuil-assurances", province: "QC", city: "Montréal", description: "Courtier quokkaword à Montréal", insuranceLines: ["Real Estate", "Pet"] });
  insertBroker(db, {
    name: "Wanderer Multi-Office Brokers",
    slug: "wanderer-multi",
    province: "NS",
    city: "Halifax",
    description: "Offices in two provinces",
    insuranceLines: ["Marine"],
    otherOffices: [{ province: "YT", city: "Whitehorse" }],
  });
});
afterAll(() => server.close());

describe("GET /api/v1/brokers: shape and order", () => {
  test("returns list items and pagination, alphabetical by name", async () => {
    const { status, body } = await search("?limit=100");
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(["data", "pagination"]);
    expect(Object.keys(body.data[0]!).sort()).toEqual(
      ["averageRating", "city", "description", "id", "isVerified", "name", "province", "reviewCount", "slug"].sort(),
    );
    const names = body.data.map((b) => foldText(b.name));
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(body.pagination).toEqual({ page: 1, limit: 100, total: body.pagination.total, totalPages: Math.ceil(body.pagination.total / 100) });
    expect(body.pagination.total).toBeGreaterThanOrEqual(250);
  });

  test("pages do not overlap and cover the total", async () => {
    const first = await search("?province=QC&limit=7&page=1");
    const second = await search("?province=QC&limit=7&page=2");
    const ids = new Set([...first.body.data, ...second.body.data].map((b) => b.id));
    expect(ids.size).toBe(first.body.data.length + second.body.data.length);
    expect(first.body.pagination.totalPages).toBe(Math.ceil(first.body.pagination.total / 7));
  });

  test("defaults are page 1 and limit 20", async () => {
    const { body } = await search("");
    expect(body.pagination.page).toBe(1);
    expect(body.pagination.limit).toBe(20);
    expect(body.data).toHaveLength(20);
  });
});

describe("only published brokers", () => {
  test("an unpublished broker is in no list, count or text search", async () => {
    const all = await search("?limit=100&province=ON&city=toronto");
    expect(all.body.data.some((b) => b.slug === "zyxel-unpublished")).toBe(false);
    const text = await search("?q=zyxelword");
    expect(text.body.pagination.total).toBe(0);
    expect(text.body.data).toEqual([]);
  });
});

describe("province filter", () => {
  test.each([
    ["on", "ON"], ["ON", "ON"], ["Ontario", "ON"], ["british columbia", "BC"], ["Québec", "QC"], ["Quebec", "QC"],
    ["QUÉBEC", "QC"], ["Colombie-Britannique", "BC"], ["colombie britannique", "BC"], ["Nouvelle-Écosse", "NS"],
    ["Terre-Neuve-et-Labrador", "NL"], ["Île-du-Prince-Édouard", "PE"], ["Northwest Territories", "NT"],
  ])("%s selects %s", async (given, code) => {
    const { status, body } = await search(`?province=${encodeURIComponent(given)}&limit=100`);
    expect(status).toBe(200);
    expect(body.pagination.total).toBeGreaterThan(0);
    const details = await Promise.all(
      body.data.slice(0, 5).map(async (b) => (await (await server.request(`/api/v1/brokers/${b.slug}`, { key })).json()) as { data: { locations: { province: string }[] } }),
    );
    for (const d of details) expect(d.data.locations.some((l) => l.province === code)).toBe(true);
  });

  test("all 13 provinces and territories, by code, English and French name, give the same results", async () => {
    for (const province of PROVINCES) {
      const totals = await Promise.all(
        [province.code, province.en, province.fr].map(async (form) => (await search(`?province=${encodeURIComponent(form)}`)).body.pagination.total),
      );
      expect(totals[0]).toBeGreaterThan(0);
      expect(new Set(totals).size).toBe(1);
    }
  });

  test("an unknown province is a 422 that lists the accepted forms", async () => {
    const { status, body } = await search("?province=Atlantis");
    expect(status).toBe(422);
    expect(body.error).toContain("province");
    expect(body.error).toContain("Atlantis");
    expect(body.error).toContain("AB, BC, MB, NB, NL, NS, NT, NU, ON, PE, QC, SK, YT");
    expect(body.error).toContain("French name");
  });

  test("a broker matches a province through any of its offices", async () => {
    const yukon = await search("?province=YT&limit=100");
    expect(yukon.body.data.some((b) => b.slug === "wanderer-multi")).toBe(true);
    const item = yukon.body.data.find((b) => b.slug === "wanderer-multi")!;
    expect(item.province).toBe("NS"); // list items show the primary office
  });
});

describe("city filter", () => {
  test("case- and accent-insensitive: Montréal = Montreal = MONTREAL", async () => {
    const totals = await Promise.all(["Montréal", "Montreal", "MONTREAL", "montréal"].map(async (c) => (await search(`?city=${encodeURIComponent(c)}`)).body.pagination.total));
    expect(totals[0]).toBeGreaterThan(1);
    expect(new Set(totals).size).toBe(1);
  });

  test("combines with province", async () => {
    const inQuebec = await search("?city=montreal&province=qc");
    const inOntario = await search("?city=montreal&province=on");
    expect(inQuebec.body.pagination.total).toBeGreaterThan(0);
    expect(inOntario.body.pagination.total).toBe(0);
    const other = await search("?city=whitehorse&province=yukon");
    expect(other.body.data.some((b) => b.slug === "wanderer-multi")).toBe(true);
  });
});

describe("insuranceType filter", () => {
  test("case-insensitive and open-ended", async () => {
    const a = await search("?insuranceType=auto");
    const b = await search("?insuranceType=AUTO");
    expect(a.body.pagination.total).toBeGreaterThan(0);
    expect(a.body.pagination.total).toBe(b.body.pagination.total);
    const realEstate = await search("?insuranceType=real%20estate&limit=100");
    expect(realEstate.body.data.some((x) => x.slug === "ecureuil-assurances")).toBe(true);
    const none = await search("?insuranceType=spaceflight");
    expect(none.status).toBe(200);
    expect(none.body.pagination).toEqual({ page: 1, limit: 20, total: 0, totalPages: 0 });
  });

  test("the seed example: province, type and text together", async () => {
    const { status, body } = await search("?province=on&insuranceType=auto&q=commercial");
    expect(status).toBe(200);
    expect(body.pagination.total).toBeGreaterThan(0);
    for (const b of body.data) expect(`${b.name} ${b.description}`.toLowerCase()).toContain("commercial");
  });
});

describe("q: full-text search", () => {
  test("matches name or description, ignoring case and accents, last word as a prefix", async () => {
    for (const q of ["quokkaword", "QUOKKAWORD", "ecureuil", "Écureuil", "écur", "courtier quokka"]) {
      const { body } = await search(`?q=${encodeURIComponent(q)}`);
      expect(body.data.map((b) => b.slug)).toContain("ecureuil-assurances");
    }
  });

  test.each([
    ['"'], ['"unbalanced'], ["(("], ["*"], ["a*b*"], ["NEAR(a b)"], ["foo NEAR bar"], ["-"], ["-commercial"], [":"], ["name:foo"],
    ["AND OR NOT"], ["'; DROP TABLE brokers; --"], ["🚗🏠"], ["北京"], ["\u0000"], ["^x"], ["{a b}"], ["x".repeat(2000)], ["a ".repeat(1000)],
  ])("hostile text %# is answered 200 without an FTS error", async (q) => {
    const res = await server.request(`/api/v1/brokers?q=${encodeURIComponent(q)}`, { key });
    expect(res.status).toBe(200);
    const body = (await res.json()) as ListBody;
    expect(Array.isArray(body.data)).toBe(true);
  });

  test("text with no searchable word applies no text filter", async () => {
    const all = await search("");
    const punct = await search(`?q=${encodeURIComponent('*"()-:')}`);
    expect(punct.body.pagination.total).toBe(all.body.pagination.total);
  });

  test("more than 2,000 characters is a 422 naming q", async () => {
    const { status, body } = await search(`?q=${"x".repeat(2001)}`);
    expect(status).toBe(422);
    expect(body.error).toContain("q: must be at most 2,000 characters");
  });
});

describe("page and limit", () => {
  test.each([
    ["limit=0", "limit"], ["limit=101", "limit"], ["page=0", "page"], ["page=-1", "page"], ["page=abc", "page"],
    ["limit=1.5", "limit"], ["limit=", "limit"], ["page=50001", "page"],
  ])("%s is a 422 naming the parameter", async (query, name) => {
    const { status, body } = await search(`?${query}`);
    expect(status).toBe(422);
    expect(body.error).toStartWith(`${name}: must be a whole number`);
  });

  test("limit=100 is the maximum accepted", async () => {
    const { status, body } = await search("?limit=100");
    expect(status).toBe(200);
    expect(body.data).toHaveLength(100);
  });

  test("a page past the end is empty with the true total", async () => {
    const { body: first } = await search("?province=PE");
    const { status, body } = await search(`?province=PE&page=${first.pagination.totalPages + 5}`);
    expect(status).toBe(200);
    expect(body.data).toEqual([]);
    expect(body.pagination.total).toBe(first.pagination.total);
  });

  test("unknown parameters are ignored", async () => {
    const plain = await search("?province=MB");
    const extra = await search("?province=MB&order=desc&foo=bar&__proto__=x&constructor=y");
    expect(extra.status).toBe(200);
    expect(extra.body).toEqual(plain.body);
  });
});
