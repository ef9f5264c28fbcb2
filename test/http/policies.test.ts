import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
let key: string;
let quote: { quoteId: string; quotes: { carrier: string; carrierSlug: string; annualPremium: number; monthlyPremium: number; coverage: string; deductible: number }[] };

beforeAll(async () => {
  server = await startTestServer();
  server.app.services.now = () => Date.parse("2026-03-01T12:00:00.000Z");
  key = await server.createKey({ workspace: "compare-a", rateLimitPerMinute: 10_000 });
  const res = await post("/api/v1/embed/quotes", {
    insuranceType: "Auto",
    province: "ON",
    postalCode: "M5V 3L9",
    details: { vehicleYear: 2020, vehicleMake: "Toyota", vehicleModel: "RAV4", driverAge: 35, cleanRecord: true },
  });
  quote = ((await res.json()) as { data: typeof quote }).data;
});
afterAll(() => server.close());

interface Failure { error: string; issues?: { path: string; message: string }[] }

function post(path: string, body: unknown, k?: string) {
  return server.request(path, { key: k ?? key, method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
}

describe("POST /api/v1/policies/compare", () => {
  test("two offers of a stored quote, by name and by slug: side by side, differences and a summary", async () => {
    const res = await post("/api/v1/policies/compare", {
      policyA: { quoteId: quote.quoteId, carrier: "wawanesa insurance" },
      policyB: { quoteId: quote.quoteId, carrier: "allstate-canada" },
    });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: Record<string, unknown> };
    expect(data).toEqual({
      policyA: { carrier: "Wawanesa Insurance", carrierSlug: "wawanesa-insurance", quoteId: quote.quoteId, annualPremium: 2099.36, monthlyPremium: 174.95, coverage: "Third-party liability $1,000,000, collision, comprehensive", deductible: 1000 },
      policyB: { carrier: "Allstate Canada", carrierSlug: "allstate-canada", quoteId: quote.quoteId, annualPremium: 2174.03, monthlyPremium: 181.17, coverage: "Third-party liability $2,000,000, collision, comprehensive, accident forgiveness", deductible: 1000 },
      differences: {
        annualPremium: 74.67,
        monthlyPremium: 6.22,
        deductible: 0,
        cheaper: "policyA",
        coverage: {
          onlyInA: ["Third-party liability $1,000,000"],
          onlyInB: ["Third-party liability $2,000,000", "accident forgiveness"],
          inBoth: ["collision", "comprehensive"],
        },
      },
      summary:
        "Wawanesa Insurance is cheaper than Allstate Canada by $74.67 a year ($6.22 a month); both have a $1,000 deductible; " +
        "Wawanesa Insurance also lists Third-party liability $1,000,000; Allstate Canada also lists Third-party liability $2,000,000, accident forgiveness.",
    });
  });

  test("an inline policy against a quoted one; one premium is enough", async () => {
    const res = await post("/api/v1/policies/compare", {
      policyA: { carrier: "My current insurer", annualPremium: 2400, coverage: "Third-party liability $1,000,000, collision", deductible: 500 },
      policyB: { quoteId: quote.quoteId, carrier: "perth-insurance" },
    });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: { policyA: { monthlyPremium: number }; differences: { cheaper: string; deductible: number; annualPremium: number }; summary: string } };
    expect(data.policyA.monthlyPremium).toBe(200);
    expect(data.differences).toMatchObject({ cheaper: "policyB", deductible: 500, annualPremium: -209.76 });
    expect(data.summary).toStartWith("Perth Insurance is cheaper than My current insurer by $209.76 a year");
  });

  test("a carrier that is not in the quote: 422 listing the quote's carriers", async () => {
    const res = await post("/api/v1/policies/compare", { policyA: { quoteId: quote.quoteId, carrier: "Manulife" }, policyB: { quoteId: quote.quoteId, carrier: "td-insurance" } });
    expect(res.status).toBe(422);
    const body = (await res.json()) as Failure;
    expect(body.issues![0]!.path).toBe("policyA.carrier");
    expect(body.error).toContain(`Quote ${quote.quoteId} has no offer from "Manulife"; its carriers are Wawanesa Insurance (wawanesa-insurance)`);
  });

  test("another workspace's quote is 404", async () => {
    const other = await server.createKey({ workspace: "compare-b" });
    const res = await post("/api/v1/policies/compare", { policyA: { quoteId: quote.quoteId, carrier: "td-insurance" }, policyB: { quoteId: quote.quoteId, carrier: "perth-insurance" } }, other);
    expect(res.status).toBe(404);
    expect(((await res.json()) as Failure).error).toBe(`policyA: no quote with the id "${quote.quoteId}" exists in this workspace.`);
  });

  test.each([
    [{ carrier: "X" }, "policyA.annualPremium", "is required for an inline policy"],
    [{ carrier: "X", annualPremium: 100, deductible: 0 }, "policyA.coverage", "is required"],
    [{ carrier: "X", annualPremium: -1, coverage: "c", deductible: 0 }, "policyA.annualPremium", "must not be negative"],
    [{ carrier: "X", annualPremium: 10.001, coverage: "c", deductible: 0 }, "policyA.annualPremium", "at most two decimals"],
    [{ quoteId: "qt_x", carrier: "X", deductible: 500 }, "policyA.deductible", "must not be given with quoteId"],
    ["not a policy", "policyA", "must be an object"],
  ])("invalid policy %#: 422 on %s", async (policyA, path, fragment) => {
    const res = await post("/api/v1/policies/compare", { policyA, policyB: { carrier: "Y", monthlyPremium: 10, coverage: "c", deductible: 0 } });
    expect(res.status).toBe(422);
    const body = (await res.json()) as Failure;
    const issue = body.issues!.find((i) => i.path === path);
    expect(issue, JSON.stringify(body)).toBeDefined();
    expect(issue!.message).toContain(fragment);
  });

  test("quotes:write is needed", async () => {
    const reader = await server.createKey({ workspace: "compare-a", scopes: ["brokers:read"] });
    const res = await post("/api/v1/policies/compare", {}, reader);
    expect(res.status).toBe(403);
  });
});
