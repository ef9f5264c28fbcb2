import { describe, expect, test } from "bun:test";
import { carrierRows } from "../../src/storage/stores/loadCarriers.ts";
import type { Carrier } from "../../src/domain/rating/carrier.ts";
import { carrierFactor, fnv1a } from "../../src/domain/rating/carrier.ts";
import { MAX_OFFERS, MIN_OFFERS, rateQuote, type RatingRequest } from "../../src/domain/rating/ratingEngine.ts";
import { regionOf } from "../../src/domain/rating/region.ts";
import { PROVINCE_CODES } from "../../src/domain/provinces.ts";
import { QUOTE_LINE_LABELS } from "../../src/domain/quotes/insuranceTypes.ts";

const catalogue = carrierRows() as Carrier[];
const now = new Date("2026-03-01T12:00:00Z");

const torontoDriver: RatingRequest = {
  line: "auto",
  province: "ON",
  postalCode: "M5V 3L9",
  details: { vehicleYear: 2020, vehicleMake: "Toyota", vehicleModel: "RAV4", driverAge: 35, cleanRecord: true },
};

function offersOf(request: RatingRequest, cat: readonly Carrier[] = catalogue) {
  const result = rateQuote(request, cat, now);
  if (!result.ok) throw new Error("expected offers");
  return result.offers;
}

describe("deterministic premiums (snapshot of fixed inputs, figures written out)", () => {
  test("auto, Toronto, 35-year-old with a clean record, 2020 RAV4", () => {
    const figures = offersOf(torontoDriver).map((o) => [o.carrierSlug, o.annualCents, o.monthlyCents, o.coverage, o.deductible]);
    const standard = "Third-party liability $1,000,000, collision, comprehensive";
    const enhanced = "Third-party liability $2,000,000, collision, comprehensive, accident forgiveness";
    expect(figures).toEqual([
      ["wawanesa-insurance", 209936, 17495, standard, 1000],
      ["allstate-canada", 217403, 18117, enhanced, 1000],
      ["perth-insurance", 219024, 18252, standard, 1000],
      ["td-insurance", 219505, 18292, enhanced, 1000],
      ["sonnet-insurance", 223044, 18587, standard, 1000],
      ["sgi-canada", 235891, 19658, standard, 1000],
      ["rsa-canada", 239364, 19947, enhanced, 1000],
      ["pembridge-insurance", 243651, 20304, standard, 1000],
    ]);
  });

  test("home, rural Québec, 1968 semi-detached, one claim, $2,500 deductible", () => {
    const request: RatingRequest = {
      line: "home",
      province: "QC",
      postalCode: "G0A 1A0",
      details: { propertyType: "semi-detached", yearBuilt: 1968, replacementCost: 420_000, claimsLast5Years: 1, deductible: 2500 },
    };
    expect(offersOf(request).map((o) => [o.carrierSlug, o.annualCents, o.monthlyCents])).toEqual([
      ["aviva-canada", 133797, 11150],
      ["the-co-operators", 141123, 11760],
      ["td-insurance", 143058, 11922],
      ["beneva", 147238, 12270],
      ["desjardins-insurance", 147469, 12289],
      ["wawanesa-insurance", 150964, 12580],
      ["sonnet-insurance", 153922, 12827],
      ["intact-insurance", 154051, 12838],
    ]);
  });

  test("the documented factors multiply out to the premium (Wawanesa, Toronto auto)", () => {
    // base 1,400 × Ontario 1.45 × metro 1.15 × age 30-64 1.00 × licensed 10+ years 1.00 × clean 1.00
    // × vehicle 3-7 years old 1.00 × 15,000 km 1.00 × $1,000 deductible 1.00 × carrier factor (standard package)
    const expected = 1400 * 1.45 * 1.15 * carrierFactor("wawanesa-insurance", "Auto");
    expect(offersOf(torontoDriver)[0]!.annualCents).toBe(Math.round(expected * 100));
  });

  test("same input, same figures, whatever the catalogue order", () => {
    const shuffled = [...catalogue].reverse();
    expect(offersOf(torontoDriver, shuffled)).toEqual(offersOf(torontoDriver));
  });
});

describe("offers", () => {
  const requests: RatingRequest[] = [
    torontoDriver,
    { line: "condo", province: "BC", postalCode: "V6B 1A1", details: { yearBuilt: 2005, contentsValue: 60_000, claimsLast5Years: 0 } },
    { line: "tenant", province: "NU", postalCode: "X0A 0H0", details: { contentsValue: 20_000, claimsLast5Years: 0 } },
    { line: "life", province: "NS", postalCode: "B3H 1A1", details: { age: 42, smoker: true, coverageAmount: 750_000, termYears: 30 } },
    { line: "travel", province: "YT", postalCode: "Y1A 1A1", details: { tripDays: 14, travellerAges: [70, 68], destination: "usa" } },
  ];

  test.each(requests.map((r) => [r.line, r.province, r] as const))("%s in %s: 3 to 8, cheapest monthly first, only carriers writing it there", (_line, _province, request) => {
    const offers = offersOf(request);
    expect(offers.length).toBeGreaterThanOrEqual(MIN_OFFERS);
    expect(offers.length).toBeLessThanOrEqual(MAX_OFFERS);
    const monthly = offers.map((o) => o.monthlyCents);
    expect(monthly).toEqual([...monthly].sort((a, b) => a - b));
    const label = request.line[0]!.toUpperCase() + request.line.slice(1);
    for (const offer of offers) {
      const carrier = catalogue.find((c) => c.slug === offer.carrierSlug)!;
      expect(carrier.lines).toContain(label);
      expect(carrier.provinces).toContain(request.province);
      expect(offer.monthlyCents).toBe(Math.floor(offer.annualCents / 12 + 0.5));
    }
  });

  test("the shipped catalogue has at least 3 carriers for every line in every province and territory", () => {
    for (const label of QUOTE_LINE_LABELS) {
      for (const province of PROVINCE_CODES) {
        const writers = catalogue.filter((c) => c.lines.includes(label) && c.provinces.includes(province));
        expect(writers.length, `${label} in ${province}`).toBeGreaterThanOrEqual(MIN_OFFERS);
      }
    }
  });

  test("more than 8 eligible carriers: the 8 cheapest are kept", () => {
    const all = rateQuote(torontoDriver, catalogue, now);
    const eligible = catalogue.filter((c) => c.lines.includes("Auto") && c.provinces.includes("ON"));
    expect(eligible.length).toBeGreaterThan(MAX_OFFERS);
    expect(all.ok && all.offers.length).toBe(MAX_OFFERS);
  });

  test("fewer than 3 carriers write the line there: no comparison, the eligible ones are named", () => {
    const small = catalogue.filter((c) => ["manulife", "sun-life", "intact-insurance"].includes(c.slug));
    const result = rateQuote({ line: "life", province: "ON", postalCode: "M5V 3L9", details: { age: 30, smoker: false, coverageAmount: 100_000, termYears: 10 } }, small, now);
    expect(result).toEqual({ ok: false, eligible: small.filter((c) => c.lines.includes("Life")) });
  });

  test("a worse record, a younger driver or a metro postal code each cost more", () => {
    const base = offersOf(torontoDriver)[0]!.annualCents;
    const worse = (details: Partial<typeof torontoDriver.details>, postalCode = torontoDriver.postalCode) =>
      offersOf({ ...torontoDriver, postalCode, details: { ...torontoDriver.details, ...details } } as RatingRequest).find((o) => o.carrierSlug === "wawanesa-insurance")!.annualCents;
    expect(worse({ cleanRecord: false })).toBeGreaterThan(base);
    expect(worse({ driverAge: 19 })).toBeGreaterThan(base);
    expect(worse({}, "K0A 1A0")).toBeLessThan(base);
  });
});

describe("region and carrier factor", () => {
  test.each([
    ["M5V 3L9", "metro"],
    ["H2X 1Y4", "metro"],
    ["T2P 1J9", "metro"],
    ["K0A 1A0", "rural"],
    ["G0A 1A0", "rural"],
    ["N2L 3G1", "urban"],
  ] as const)("%s is %s", (postal, region) => {
    expect(regionOf(postal)).toBe(region);
  });

  test("carrier factors are stable and stay within ±15 %", () => {
    expect(fnv1a("intact-insurance")).toBe(fnv1a("intact-insurance"));
    for (const carrier of catalogue) {
      for (const line of carrier.lines) {
        const factor = carrierFactor(carrier.slug, line);
        expect(factor).toBeGreaterThanOrEqual(0.85);
        expect(factor).toBeLessThan(1.15);
      }
    }
  });
});
