import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
let key: string;
// The clock the server sees: quotes are priced (vehicle age) and dated from it.
let clock = Date.parse("2026-03-01T12:00:00.000Z");

beforeAll(async () => {
  server = await startTestServer();
  server.app.services.now = () => clock;
  key = await server.createKey({ workspace: "quotes-a", rateLimitPerMinute: 10_000 });
});
afterAll(() => server.close());

const autoDetails = { vehicleYear: 2020, vehicleMake: "Toyota", vehicleModel: "RAV4", driverAge: 35, cleanRecord: true };
const torontoAuto = { insuranceType: "Auto", province: "ON", postalCode: "M5V 3L9", details: autoDetails };

interface Offer { carrier: string; carrierSlug: string; monthlyPremium: number; annualPremium: number; coverage: string; deductible: number }
interface Quote { quoteId: string; insuranceType: string; insuranceLine: string; province: string; postalCode: string; quotes: Offer[]; createdAt: string; expiresAt: string; expired: boolean }
interface Failure { error: string; issues?: { path: string; message: string }[] }

function postQuote(body: unknown, options: { key?: string; headers?: Record<string, string> } = {}) {
  return server.request("/api/v1/embed/quotes", {
    key: options.key ?? key,
    method: "POST",
    headers: { "Content-Type": "application/json", ...options.headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function expect422(res: Response, path: string, fragment: string): Promise<Failure> {
  expect(res.status).toBe(422);
  const body = (await res.json()) as Failure;
  const issue = body.issues?.find((i) => i.path === path);
  expect(issue, `no issue at ${path} in ${JSON.stringify(body)}`).toBeDefined();
  expect(issue!.message).toContain(fragment);
  expect(body.error).toContain(`${path}: `);
  return body;
}

describe("POST /api/v1/embed/quotes", () => {
  test("201 with the offers, the echoed insuranceType and a 30-day expiry", async () => {
    const res = await postQuote({ ...torontoAuto, insuranceType: "aUtO" });
    expect(res.status).toBe(201);
    const { data } = (await res.json()) as { data: Quote };
    expect(data.quoteId).toMatch(/^qt_[0-9a-f]{32}$/);
    expect(data.insuranceType).toBe("aUtO");
    expect(data.insuranceLine).toBe("Auto");
    expect(data.createdAt).toBe("2026-03-01T12:00:00.000Z");
    expect(data.expiresAt).toBe("2026-03-31T12:00:00.000Z");
    expect(data.expired).toBe(false);
    expect(data.quotes.length).toBeGreaterThanOrEqual(3);
    expect(data.quotes.length).toBeLessThanOrEqual(8);
    for (const offer of data.quotes) expect(Object.keys(offer).sort()).toEqual(["annualPremium", "carrier", "carrierSlug", "coverage", "deductible", "monthlyPremium"]);
  });

  test("deterministic premiums: a fixed request gives these figures", async () => {
    const first = (await (await postQuote(torontoAuto)).json()) as { data: Quote };
    const second = (await (await postQuote(torontoAuto)).json()) as { data: Quote };
    const figures = first.data.quotes.map((o) => [o.carrier, o.carrierSlug, o.annualPremium, o.monthlyPremium, o.deductible]);
    expect(figures).toEqual([
      ["Wawanesa Insurance", "wawanesa-insurance", 2099.36, 174.95, 1000],
      ["Allstate Canada", "allstate-canada", 2174.03, 181.17, 1000],
      ["Perth Insurance", "perth-insurance", 2190.24, 182.52, 1000],
      ["TD Insurance", "td-insurance", 2195.05, 182.92, 1000],
      ["Sonnet Insurance", "sonnet-insurance", 2230.44, 185.87, 1000],
      ["SGI CANADA", "sgi-canada", 2358.91, 196.58, 1000],
      ["RSA Canada", "rsa-canada", 2393.64, 199.47, 1000],
      ["Pembridge Insurance", "pembridge-insurance", 2436.51, 203.04, 1000],
    ]);
    expect(first.data.quotes[1]!.coverage).toBe("Third-party liability $2,000,000, collision, comprehensive, accident forgiveness");
    expect(second.data.quotes).toEqual(first.data.quotes);
    expect(second.data.quoteId).not.toBe(first.data.quoteId);
  });

  test("monthly = annual / 12 rounded to the cent, half away from zero; sorted by monthly", async () => {
    for (const request of [
      torontoAuto,
      { insuranceType: "Home", province: "AB", postalCode: "T2P 1J9", details: { propertyType: "detached", yearBuilt: 1995, replacementCost: 500_000, claimsLast5Years: 0 } },
      { insuranceType: "Travel", province: "NU", postalCode: "X0A 0H0", details: { tripDays: 10, travellerAges: [40, 42], destination: "usa" } },
    ]) {
      const { data } = (await (await postQuote(request)).json()) as { data: Quote };
      for (const offer of data.quotes) {
        const annualCents = Math.round(offer.annualPremium * 100);
        expect(annualCents / 100).toBe(offer.annualPremium); // whole cents
        expect(Math.round(offer.monthlyPremium * 100)).toBe(Math.floor(annualCents / 12 + 0.5));
      }
      const monthly = data.quotes.map((o) => o.monthlyPremium);
      expect(monthly).toEqual([...monthly].sort((a, b) => a - b));
    }
  });

  test.each([["Home"], ["Condo"], ["Tenant"], ["Life"], ["Travel"]])("every line is quoted: %s", async (line) => {
    const details: Record<string, object> = {
      Home: { propertyType: "townhouse", yearBuilt: 2010, replacementCost: 350_000, claimsLast5Years: 0 },
      Condo: { yearBuilt: 2015, contentsValue: 40_000, claimsLast5Years: 0, deductible: 500 },
      Tenant: { contentsValue: 25_000, claimsLast5Years: 1 },
      Life: { age: 40, smoker: false, coverageAmount: 500_000, termYears: 20 },
      Travel: { tripDays: 7, travellerAges: [30], destination: "world" },
    };
    const res = await postQuote({ insuranceType: line, province: "Québec", postalCode: "h2x1y4", details: details[line] });
    expect(res.status).toBe(201);
    const { data } = (await res.json()) as { data: Quote };
    expect(data.province).toBe("QC");
    expect(data.postalCode).toBe("H2X 1Y4");
    expect(data.quotes.length).toBeGreaterThanOrEqual(3);
  });

  test("an unsupported insuranceType is refused, listing the supported ones", async () => {
    const body = await expect422(await postQuote({ ...torontoAuto, insuranceType: "Pet" }), "insuranceType", '"Pet" is not an insurance type we quote');
    expect(body.issues![0]!.message).toContain("Auto, Home, Condo, Tenant, Life, Travel");
  });

  test("a province the foundation does not know is refused", async () => {
    await expect422(await postQuote({ ...torontoAuto, province: "Ontarioo" }), "province", "is not a Canadian province or territory");
  });

  test.each([["M5V3L", "format"], ["Z5V 3L9", "W and Z"], ["M5V-3L9", "dash"]])("a malformed postal code is refused: %s (%s)", async (postalCode) => {
    await expect422(await postQuote({ ...torontoAuto, postalCode }), "postalCode", "must be a Canadian postal code like A1A 1A1");
  });

  test("postal code / province mismatch: 422 naming the postal code's province", async () => {
    const body = await expect422(await postQuote({ ...torontoAuto, province: "QC" }), "postalCode", "M5V 3L9 is a postal code of Ontario (ON), not of Quebec (QC)");
    expect(body.error).toBe("postalCode: M5V 3L9 is a postal code of Ontario (ON), not of Quebec (QC). Check the postal code or the province.");
  });

  test("X codes split between the territories by FSA: X0A is Nunavut, X1A the Northwest Territories", async () => {
    const tenant = { insuranceType: "Tenant", details: { contentsValue: 20_000, claimsLast5Years: 0 } };
    expect((await postQuote({ ...tenant, province: "NU", postalCode: "X0A 0H0" })).status).toBe(201);
    expect((await postQuote({ ...tenant, province: "NT", postalCode: "X1A 2P7" })).status).toBe(201);
    await expect422(await postQuote({ ...tenant, province: "NT", postalCode: "X0A 0H0" }), "postalCode", "of Nunavut (NU), not of Northwest Territories (NT)");
  });

  test.each(Object.keys(autoDetails))("Auto detail missing: %s → 422 on details.%s", async (field) => {
    const details: Record<string, unknown> = { ...autoDetails };
    delete details[field];
    const body = await expect422(await postQuote({ ...torontoAuto, details }), `details.${field}`, "is required");
    expect(body.issues).toHaveLength(1);
  });

  test.each([
    ["vehicleYear", 1949, "must be at least 1950"],
    ["vehicleYear", 2028, "must be at most 2027"],
    ["vehicleYear", 2020.5, "must be a whole number"],
    ["vehicleYear", "2020", "must be a number"],
    ["vehicleMake", "  ", "must not be empty"],
    ["vehicleModel", 4, "must be text"],
    ["driverAge", 15, "must be at least 16"],
    ["driverAge", 101, "must be at most 100"],
    ["cleanRecord", "yes", "must be true or false"],
    ["deductible", 750, "must be one of 500, 1000, 2500, 5000"],
  ])("Auto detail wrong: %s = %p", async (field, value, fragment) => {
    await expect422(await postQuote({ ...torontoAuto, details: { ...autoDetails, [field]: value } }), `details.${field}`, fragment);
  });

  test("next year's model is accepted (the bound follows the server's clock)", async () => {
    expect((await postQuote({ ...torontoAuto, details: { ...autoDetails, vehicleYear: 2027 } })).status).toBe(201);
  });

  test("an unknown detail or field is named", async () => {
    await expect422(await postQuote({ ...torontoAuto, details: { ...autoDetails, colour: "red" } }), "details.colour", "is not a detail of Auto quotes");
    await expect422(await postQuote({ ...torontoAuto, postal_code: "M5V 3L9" }), "postal_code", "is not a known field");
  });

  test("every problem is reported at once", async () => {
    const res = await postQuote({ ...torontoAuto, province: "BC", details: { vehicleMake: "Honda" } });
    const body = (await res.json()) as Failure;
    expect(body.issues!.map((i) => i.path).sort()).toEqual(["details.cleanRecord", "details.driverAge", "details.vehicleModel", "details.vehicleYear", "postalCode"]);
  });

  test("missing details / details not an object", async () => {
    const { details: _details, ...rest } = torontoAuto;
    await expect422(await postQuote(rest), "details", "is required");
    await expect422(await postQuote({ ...torontoAuto, details: [1] }), "details", "must be an object");
  });
});

describe("concurrent quotes (group commit)", () => {
  test("quotes posted at once, some invalid, each get their own answer; every 201 is stored whole and readable", async () => {
    const bodies = Array.from({ length: 24 }, (_, i) =>
      i % 6 === 5 ? { ...torontoAuto, postalCode: "V6B 1A1" } : { ...torontoAuto, details: { ...autoDetails, driverAge: 20 + i } },
    );
    const answers = await Promise.all(bodies.map(async (body) => {
      const res = await postQuote(body);
      return { status: res.status, body: (await res.json()) as { data: Quote } };
    }));
    expect(answers.map((a) => a.status)).toEqual(bodies.map((_, i) => (i % 6 === 5 ? 422 : 201)));
    const created = answers.filter((a) => a.status === 201).map((a) => a.body.data);
    expect(new Set(created.map((q) => q.quoteId)).size).toBe(created.length);
    for (const quote of created) expect(quote.quoteId).toMatch(/^qt_[0-9a-f]{32}$/);
    for (const quote of created) {
      const res = await server.request(`/api/v1/embed/quotes/${quote.quoteId}`, { key });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: Quote }).data).toEqual(quote);
    }
  });
});

test("quote ids grow with their creation time (new rows are appended to the keys, not scattered)", async () => {
  const ids: string[] = [];
  const start = clock;
  try {
    // Ten in a row: random ids would come out sorted once in 3.6 million runs.
    for (let i = 0; i < 10; i++) {
      clock = start + i * 60_000;
      ids.push(((await (await postQuote(torontoAuto)).json()) as { data: Quote }).data.quoteId);
    }
  } finally {
    clock = start;
  }
  expect([...ids].sort()).toEqual(ids);
});

describe("body rules", () => {
  test("415 for a body that is not JSON", async () => {
    const res = await postQuote("insuranceType=Auto", { headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(res.status).toBe(415);
    expect(((await res.json()) as Failure).error).toContain("Content-Type: application/json");
  });

  test("413 for a body over 64 KiB", async () => {
    const res = await postQuote({ ...torontoAuto, padding: "x".repeat(64 * 1024) });
    expect(res.status).toBe(413);
    expect(((await res.json()) as Failure).error).toBe("The body is larger than 64 KiB.");
  });

  test("422 for malformed JSON, an empty body, or a JSON value that is not an object", async () => {
    const malformed = await postQuote('{"insuranceType": "Auto",');
    expect(malformed.status).toBe(422);
    expect(((await malformed.json()) as Failure).error).toStartWith("The body is not valid JSON");
    const empty = await postQuote("");
    expect(empty.status).toBe(422);
    expect(((await empty.json()) as Failure).error).toBe("The body is empty; send a JSON object.");
    const array = await postQuote("[]");
    expect(array.status).toBe(422);
    expect(((await array.json()) as Failure).error).toContain("must be a JSON object {insuranceType, province, postalCode, details}");
  });
});

describe("GET /api/v1/embed/quotes/{quoteId}", () => {
  test("returns the stored quote of the workspace, identical to the creation answer", async () => {
    const created = ((await (await postQuote(torontoAuto)).json()) as { data: Quote }).data;
    const res = await server.request(`/api/v1/embed/quotes/${created.quoteId}`, { key });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: Quote }).data).toEqual(created);
  });

  test("another workspace's quote is 404, like an unknown id; a key of the same workspace reads it", async () => {
    const created = ((await (await postQuote(torontoAuto)).json()) as { data: Quote }).data;
    const otherWorkspace = await server.createKey({ workspace: "quotes-b" });
    const sameWorkspace = await server.createKey({ workspace: "quotes-a" });
    const res = await server.request(`/api/v1/embed/quotes/${created.quoteId}`, { key: otherWorkspace });
    expect(res.status).toBe(404);
    expect(((await res.json()) as Failure).error).toBe(`No quote with the id "${created.quoteId}" exists in this workspace.`);
    const unknown = await server.request("/api/v1/embed/quotes/qt_00000000000000000000000000000000", { key });
    expect(unknown.status).toBe(404);
    expect((await server.request(`/api/v1/embed/quotes/${created.quoteId}`, { key: sameWorkspace })).status).toBe(200);
  });

  test("an expired quote is still readable and says so", async () => {
    const created = ((await (await postQuote(torontoAuto)).json()) as { data: Quote }).data;
    const saved = clock;
    try {
      clock = Date.parse(created.expiresAt) - 1;
      expect(((await (await server.request(`/api/v1/embed/quotes/${created.quoteId}`, { key })).json()) as { data: Quote }).data.expired).toBe(false);
      clock = Date.parse(created.expiresAt);
      const res = await server.request(`/api/v1/embed/quotes/${created.quoteId}`, { key });
      expect(res.status).toBe(200);
      const { data } = (await res.json()) as { data: Quote };
      expect(data.expired).toBe(true);
      expect(data.quotes).toEqual(created.quotes);
    } finally {
      clock = saved;
    }
  });
});

describe("scopes", () => {
  test("a key without quotes:write gets 403 naming the scope", async () => {
    const readOnly = await server.createKey({ scopes: ["brokers:read"] });
    const res = await postQuote(torontoAuto, { key: readOnly });
    expect(res.status).toBe(403);
    expect(((await res.json()) as Failure).error).toBe("This API key lacks the quotes:write scope. Create a key that includes it.");
  });
});
