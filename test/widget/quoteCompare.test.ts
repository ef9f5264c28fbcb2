/**
 * Issue 29: a travel quote shows the trip's price; every quote button has its own accessible
 * name; the cheapest is marked; two or three quotes compare side by side.
 */
import { useDom } from "./setup-dom.ts";
import { describe, expect, test } from "bun:test";
import type { BrokerQuoteForm } from "../../widget/quoteForm.ts";
import type { QuoteResult } from "../../widget/types.ts";
import { mount, shadow, text, until } from "./helpers.ts";

useDom();

const offer = (carrier: string, annual: number) => ({
  carrier,
  carrierSlug: carrier.toLowerCase(),
  monthlyPremium: Math.round((annual / 12) * 100) / 100,
  annualPremium: annual,
  coverage: `${carrier} cover`,
  deductible: 0,
});

const result = (line: string, quotes = [offer("Aviva", 69.17), offer("Intact", 64.5), offer("Desjardins", 80), offer("Wawanesa", 90)]): QuoteResult => ({
  quoteId: "qt_1",
  insuranceType: line,
  insuranceLine: line,
  province: "ON",
  postalCode: "M5V 3L9",
  details: {},
  currency: "CAD",
  quotes,
  createdAt: "2026-03-01T00:00:00.000Z",
  expiresAt: "2026-03-31T00:00:00.000Z",
  expired: false,
});

async function showResults(line: string, lang = "en") {
  const el = await mount<BrokerQuoteForm>(`<broker-quote-form api-key="k" api-base="https://d.example" lang="${lang}"></broker-quote-form>`);
  el.result = result(line);
  el.phase = "results";
  await el.updateComplete;
  return el;
}

describe("quote results", () => {
  test("a trip has one price, for the trip — no month, no year", async () => {
    const el = await showResults("Travel");
    const t = text(el);
    expect(t).toContain("$69.17 for the trip");
    expect(t).not.toContain("/month");
    expect(t).not.toContain("a year");
  });

  test("in French too", async () => {
    const el = await showResults("Travel", "fr");
    expect(text(el)).toContain("69,17 $ pour le voyage");
    expect(text(el)).not.toContain("/mois");
  });

  test("Auto keeps per month and per year", async () => {
    const el = await showResults("Auto");
    expect(text(el)).toContain("/month");
    expect(text(el)).toContain("a year");
  });

  test("every button and checkbox has a name of its own", async () => {
    const el = await showResults("Auto");
    const root = shadow(el);
    const names = [...root.querySelectorAll("button")].map((b) => b.getAttribute("aria-label") ?? b.textContent!.trim());
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain("A broker can call me about this quote from Aviva");
    const boxes = [...root.querySelectorAll<HTMLInputElement>("[part=compare]")].map((box) => box.closest("label")!.textContent!.trim());
    expect(boxes).toEqual(["Compare Aviva", "Compare Intact", "Compare Desjardins", "Compare Wawanesa"]);
  });

  test("the cheapest is marked, whatever its place in the list", async () => {
    const el = await showResults("Auto");
    const cards = [...shadow(el).querySelectorAll("[part=quote]")];
    const marked = cards.filter((card) => card.querySelector("[part=cheapest-badge]"));
    expect(marked).toHaveLength(1);
    expect(marked[0]!.textContent).toContain("Intact");
    expect(marked[0]!.textContent).toContain("Lowest price");
  });

  test("two or three quotes side by side; a fourth cannot be ticked; focus goes to the table", async () => {
    const el = await showResults("Travel");
    const root = shadow(el);
    const boxes = () => [...root.querySelectorAll<HTMLInputElement>("[part=compare]")];
    const tick = async (i: number) => {
      boxes()[i]!.click();
      await el.updateComplete;
    };
    await tick(0);
    expect(root.querySelector("[part~=compare][part~=button]")).toBeNull();
    await tick(1);
    await tick(2);
    expect(boxes()[3]!.disabled).toBe(true);
    const button = await until(() => root.querySelector<HTMLButtonElement>("button[part~=compare]"));
    expect(button.textContent).toContain("Compare side by side (3)");
    button.click();
    const table = await until(() => root.querySelector("[part=comparison] table"));
    const heads = [...table.querySelectorAll("thead th")].map((th) => th.textContent!.trim());
    expect(heads).toHaveLength(3);
    ["Aviva", "Intact", "Desjardins"].forEach((carrier, i) => expect(heads[i]).toStartWith(carrier));
    expect(heads[1]).toContain("Lowest price");
    expect(table.textContent).toContain("$64.50 for the trip");
    expect(root.activeElement?.id).toBe("comparison-heading");
    root.querySelector<HTMLButtonElement>("[part~=close-comparison]")!.click();
    await until(() => !root.querySelector("[part=comparison]"));
  });
});
