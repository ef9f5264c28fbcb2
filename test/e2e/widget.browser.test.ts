/**
 * The widget end to end: the REAL server (test/support/server.ts, demo data loaded), a
 * partner page on another origin embedding widget.js with each data-type, and Debian's
 * headless Chromium. Screenshots land in test/e2e/screenshots/ (git-ignored).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { startTestServer, type TestServer } from "../support/server.ts";
import { closeBrowser, launchChromium } from "./browser.ts";
import { startPartnerSite, type PartnerSite } from "./partnerSite.ts";

const OUTPUT = join(import.meta.dir, "screenshots");
const EMBED_SCOPES = ["brokers:read", "reviews:read", "quotes:write", "leads:write"] as const;

let server: TestServer;
let partner: PartnerSite;
let browser: Browser;
let reviewedBroker: string;

async function firstReviewedBroker(key: string, origin: string): Promise<string> {
  const res = await fetch(`${server.url}/api/v1/embed/brokers?limit=50`, { headers: { Authorization: `Bearer ${key}`, Origin: origin } });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { data: { slug: string; reviewCount: number }[] };
  const broker = body.data.find((b) => b.reviewCount > 0);
  if (!broker) throw new Error("the demo data has no broker with reviews in the first 50");
  return broker.slug;
}

beforeAll(async () => {
  mkdirSync(OUTPUT, { recursive: true });
  server = await startTestServer();
  // The partner origin must exist before the key that allows it: start it with a page table
  // filled in afterwards.
  const pages: Parameters<typeof startPartnerSite>[1] = {};
  partner = startPartnerSite(server.url, pages);
  const key = await server.createKey({ workspace: "partner", origins: [partner.origin], scopes: [...EMBED_SCOPES] });
  const otherSiteKey = await server.createKey({ workspace: "partner", origins: ["https://somewhere-else.example"], scopes: [...EMBED_SCOPES] });
  reviewedBroker = await firstReviewedBroker(key, partner.origin);
  Object.assign(pages, {
    "/quote": { widgets: [{ type: "quote", key, attributes: { province: "ON" } }] },
    "/directory": { widgets: [{ type: "directory", key, attributes: { limit: "6", theme: "light" } }] },
    "/reviews": { widgets: [{ type: "reviews", key, attributes: { broker: reviewedBroker } }] },
    "/all-dark-fr": {
      lang: "fr-CA",
      background: "#0b0d10",
      widgets: [
        { type: "quote", key, attributes: { theme: "dark" } },
        { type: "directory", key, attributes: { theme: "dark", limit: "2" } },
        { type: "reviews", key, attributes: { theme: "dark", broker: reviewedBroker, limit: "2" } },
      ],
    },
    "/discovery": { widgets: [{ type: "directory", key, attributes: { limit: "4", theme: "light" } }] },
    "/discovery-dark-fr": { lang: "fr-CA", background: "#0b0d10", widgets: [{ type: "directory", key, attributes: { limit: "2", theme: "dark" } }] },
    "/reviews-dark-fr": { lang: "fr-CA", background: "#0b0d10", widgets: [{ type: "reviews", key, attributes: { broker: reviewedBroker, theme: "dark", limit: "3" } }] },
    "/auto": { widgets: [{ type: "reviews", key, attributes: { broker: reviewedBroker, theme: "auto", limit: "1" } }] },
    "/wrong-origin": { widgets: [{ type: "directory", key: otherSiteKey }] },
    "/bad-key": { widgets: [{ type: "directory", key: "brk_not_a_real_key" }] },
  });
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await closeBrowser(browser);
  await partner?.stop();
  await server?.close();
});

async function openPage(path: string, width = 900): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  // Fail a step well before the test's own timeout: a timed-out bun test kills the browser.
  page.setDefaultTimeout(10_000);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.addInitScript(() => {
    const seen: { type: string; detail: unknown }[] = [];
    (window as unknown as { __events: typeof seen }).__events = seen;
    for (const type of ["broker-widget:quote", "broker-widget:lead", "broker-widget:select"]) {
      document.addEventListener(type, (e) => seen.push({ type, detail: (e as CustomEvent).detail }));
    }
  });
  await page.goto(`${partner.origin}${path}`);
  return { page, errors };
}

/** Reads the directory's cards from its shadow root: name, rating label, distance text. */
const directoryCards = (page: Page) =>
  page.evaluate(() =>
    [...(document.querySelector("broker-directory")?.shadowRoot?.querySelectorAll("[part=card]") ?? [])].map((card) => ({
      name: card.querySelector("[part=card-name]")?.textContent?.trim() ?? "",
      href: card.querySelector("[part=card-link]")?.getAttribute("href") ?? "",
      rated: Number(/Rated ([\d.]+)/.exec(card.querySelector("[part=rating] [role=img]")?.getAttribute("aria-label") ?? "")?.[1] ?? 0),
      distance: card.querySelector("[part=card-distance]")?.textContent?.trim(),
    })),
  );

const cardCount = (page: Page) => page.locator("broker-directory [part=card]").count();

/** A narrow page's last checks: nothing wider than the viewport, no page error; then its full-page screenshot. */
async function finishNarrowPage(page: Page, errors: string[], screenshot: string): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: join(OUTPUT, screenshot), fullPage: true });
  expect(errors).toEqual([]);
  await page.close();
}

const events = (page: Page) => page.evaluate(() => (window as unknown as { __events: { type: string; detail: unknown }[] }).__events);

describe("widget.js on a partner page (another origin) against the real server", () => {
  test("quote: fill the Auto form, get quotes, ask a broker to call", async () => {
    const { page, errors } = await openPage("/quote");
    await page.getByLabel("Postal code").fill("M5V 3L9");
    await page.getByLabel("Vehicle model year").fill("2021");
    await page.getByLabel("Vehicle make").fill("Toyota");
    await page.getByLabel("Vehicle model", { exact: true }).fill("RAV4");
    await page.getByLabel("Driver's age").fill("38");
    await page.getByLabel("No at-fault claims").selectOption("yes");
    await page.getByRole("button", { name: "Get my quotes" }).click();
    const quotes = page.locator("broker-quote-form [part=quote]");
    await quotes.first().waitFor({ timeout: 10_000 });
    expect(await quotes.count()).toBeGreaterThan(0);
    expect(await quotes.first().textContent()).toMatch(/\$[\d,]+\.\d{2}\/month/);
    await page.locator("broker-quote-form").screenshot({ path: join(OUTPUT, "quote.png") });
    const quoteEvent = (await events(page)).find((e) => e.type === "broker-widget:quote");
    expect(quoteEvent?.detail).toMatchObject({ insuranceType: expect.any(String), quoteId: expect.anything() });

    await page.getByRole("button", { name: "Have a broker contact me" }).click();
    await page.getByLabel("Full name").fill("Ada Lovelace");
    await page.getByLabel("Email").fill("ada@example.com");
    await page.getByLabel("Phone").fill("416-555-0123");
    await page.getByRole("button", { name: "Send my request" }).click();
    expect(await page.locator("broker-quote-form [part=lead-done]").textContent()).toContain("A broker will contact you soon");
    expect((await events(page)).some((e) => e.type === "broker-widget:lead")).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  test("quote: the server's rules show up client-side before any request", async () => {
    const { page } = await openPage("/quote");
    await page.getByLabel("Postal code").fill("H2X 1Y4"); // Quebec code, Ontario chosen
    await page.getByRole("button", { name: "Get my quotes" }).click();
    expect(await page.locator("broker-quote-form [part=error]").first().textContent()).toBe("This postal code is not in Ontario.");
    await page.close();
  }, 30_000);

  test("directory: broker cards with photo, stars and lines; partner CSS does not leak in", async () => {
    const { page, errors } = await openPage("/directory");
    const cards = page.locator("broker-directory [part=card]");
    await cards.first().waitFor({ timeout: 10_000 });
    expect(await cards.count()).toBeGreaterThan(0);
    expect(await cards.count()).toBeLessThanOrEqual(6);
    const first = cards.first();
    expect(await first.locator("img").getAttribute("src")).toMatch(/^https?:\/\//);
    expect(await first.locator("a").getAttribute("href")).toMatch(/^#[a-z0-9-]+$/);
    // isVerified from the real API shows as the badge (the demo's first cards include verified brokers).
    const badges = page.locator("broker-directory [part=verified]");
    expect(await badges.count()).toBeGreaterThan(0);
    expect(await badges.first().textContent()).toContain("Verified");
    const color = await page.locator("broker-directory select").first().evaluate((el) => getComputedStyle(el).color);
    expect(color).not.toBe("rgb(204, 0, 0)");
    await page.locator("broker-directory").screenshot({ path: join(OUTPUT, "directory.png") });
    // A filter refetches.
    await page.getByLabel("Province or territory").selectOption("QC");
    await page.waitForFunction(() => {
      const root = document.querySelector("broker-directory")?.shadowRoot;
      const places = [...(root?.querySelectorAll("[part=card-place]") ?? [])].map((e) => e.textContent ?? "");
      return places.length > 0 && places.every((p) => p.endsWith(", QC"));
    }, undefined, { timeout: 10_000 });
    expect(errors).toEqual([]);
    await page.close();
  }, 30_000);

  test("reviews: summary and latest reviews", async () => {
    const { page, errors } = await openPage("/reviews");
    const reviews = page.locator("broker-reviews [part=review]");
    await reviews.first().waitFor({ timeout: 10_000 });
    expect(await reviews.count()).toBeGreaterThan(0);
    expect(await page.locator("broker-reviews [part=summary] [role=img]").getAttribute("aria-label")).toMatch(/^Rated [\d.]+ out of 5$/);
    // The review text comes from the API's `content` field.
    expect(((await reviews.first().locator(".body").textContent()) ?? "").length).toBeGreaterThan(0);
    await page.locator("broker-reviews").screenshot({ path: join(OUTPUT, "reviews.png") });
    expect(errors).toEqual([]);
    await page.close();
  }, 30_000);

  test("three widgets on one page, dark theme, French, 320 px wide", async () => {
    const { page, errors } = await openPage("/all-dark-fr", 320);
    await page.locator("broker-directory [part=card]").first().waitFor({ timeout: 10_000 });
    await page.locator("broker-reviews [part=review]").first().waitFor({ timeout: 10_000 });
    expect(await page.getByRole("button", { name: "Obtenir mes soumissions" }).count()).toBe(1);
    await finishNarrowPage(page, errors, "all-dark-fr-320.png");
  }, 30_000);

  test("directory search: typing in the search box narrows the cards to the server's matches", async () => {
    const { page, errors } = await openPage("/discovery");
    await page.locator("broker-directory [part=card]").first().waitFor();
    const before = await page.locator("broker-directory [part=count]").textContent();
    await page.getByLabel("Search").pressSequentially("maple", { delay: 30 });
    await page.waitForFunction(() => {
      const names = [...(document.querySelector("broker-directory")?.shadowRoot?.querySelectorAll("[part=card-name]") ?? [])];
      return names.length > 0 && names.every((n) => /maple/i.test(n.textContent ?? ""));
    });
    const after = await page.locator("broker-directory [part=count]").textContent();
    expect(after).not.toBe(before);
    expect(Number(/of (\d+)/.exec(after ?? "")?.[1])).toBeLessThan(Number(/of (\d+)/.exec(before ?? "")?.[1]));
    // Relevance is offered once there is a search text.
    expect(await page.locator("broker-directory [name=sort] option[value=relevance]:not([disabled])").count()).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  }, 30_000);

  test("directory near: a postal code shows distances, sort by distance puts the nearest first", async () => {
    const { page, errors } = await openPage("/discovery");
    await page.locator("broker-directory [part=card]").first().waitFor();
    expect(await page.locator("broker-directory [name=sort] option[value=distance]:not([disabled])").count()).toBe(0);
    await page.getByLabel("Near").fill("M5V 3L9");
    await page.locator("broker-directory [part=card-distance]").first().waitFor();
    let cards = await directoryCards(page);
    // Issue 29: the distance names the office it is measured to (not always the card's city).
    expect(cards.every((c) => /^\d+(\.\d)? km away · .+, [A-Z]{2} office$/.test(c.distance ?? ""))).toBe(true);
    await page.getByLabel("Sort by").selectOption("distance");
    await page.waitForFunction(() => {
      const km = [...(document.querySelector("broker-directory")?.shadowRoot?.querySelectorAll("[part=card-distance]") ?? [])].map((d) => parseFloat(d.textContent ?? ""));
      return km.length > 1 && km.every((d, i) => i === 0 || km[i - 1]! <= d);
    });
    cards = await directoryCards(page);
    expect(parseFloat(cards[0]!.distance!)).toBeLessThan(5);
    await page.locator("broker-directory").screenshot({ path: join(OUTPUT, "discovery-near.png") });
    expect(errors).toEqual([]);
    await page.close();
  }, 30_000);

  test("directory sort: Best rated reorders the cards by rating", async () => {
    const { page } = await openPage("/discovery");
    await page.locator("broker-directory [part=card]").first().waitFor();
    const byName = await directoryCards(page);
    await page.getByLabel("Sort by").selectOption({ label: "Best rated" });
    await page.waitForFunction((first) => {
      const name = document.querySelector("broker-directory")?.shadowRoot?.querySelector("[part=card-name]")?.textContent?.trim();
      return name !== undefined && name !== first;
    }, byName[0]!.name);
    const byRating = await directoryCards(page);
    expect(byRating.map((c) => c.rated)).toEqual([...byRating.map((c) => c.rated)].sort((a, b) => b - a));
    expect(byRating[0]!.rated).toBeGreaterThanOrEqual(Math.max(...byName.map((c) => c.rated)));
    await page.close();
  }, 30_000);

  test("directory Show more appends the next page and moves focus to it", async () => {
    const { page } = await openPage("/discovery");
    await page.locator("broker-directory [part=card]").first().waitFor();
    const first = await directoryCards(page);
    expect(first).toHaveLength(4);
    await page.getByRole("button", { name: "Show more" }).click();
    await page.waitForFunction(() => (document.querySelector("broker-directory")?.shadowRoot?.querySelectorAll("[part=card]").length ?? 0) === 8);
    const both = await directoryCards(page);
    expect(both.slice(0, 4)).toEqual(first);
    // Eight different brokers (two may share a name: the slug tells them apart).
    expect(new Set(both.map((c) => c.href)).size).toBe(8);
    const focused = await page.evaluate(() => document.querySelector("broker-directory")?.shadowRoot?.activeElement?.textContent?.trim());
    expect(focused).toBe(both[4]!.name);
    expect(await page.locator("broker-directory [part=count]").textContent()).toMatch(/Showing 8 of \d+ brokers/);
    await page.close();
  }, 30_000);

  test("directory facets and a refused postal area: counts beside options, the server's message beside Near", async () => {
    const { page } = await openPage("/discovery");
    await page.locator("broker-directory [part=card]").first().waitFor();
    const ontario = await page.locator("broker-directory [name=province] option[value=ON]").textContent();
    expect(ontario).toMatch(/^Ontario \(\d+\)$/);
    await page.getByLabel("Near").fill("X9Z");
    await page.getByLabel("Near").press("Enter");
    const error = page.locator("broker-directory [part=error]");
    await error.waitFor();
    expect(await error.textContent()).toContain("X9Z is not in our postal-code data");
    expect(await page.getByLabel("Near").getAttribute("aria-invalid")).toBe("true");
    await page.locator("broker-directory").screenshot({ path: join(OUTPUT, "discovery-422.png") });
    await page.close();
  }, 30_000);

  test("directory in dark French at 320 px: nothing overflows, distances in French", async () => {
    const { page, errors } = await openPage("/discovery-dark-fr", 320);
    await page.locator("broker-directory [part=card]").first().waitFor();
    await page.getByLabel("Près de").fill("H2X 1Y4");
    await page.locator("broker-directory [part=card-distance]").first().waitFor();
    expect(await page.locator("broker-directory [part=card-distance]").first().textContent()).toMatch(/^à \d+(,\d)?\s?km · bureau de .+, [A-Z]{2}$/);
    await finishNarrowPage(page, errors, "discovery-dark-fr-320.png");
  }, 30_000);

  test("reviews histogram: a bar (pressed with the keyboard) filters the reviews; Show all clears it", async () => {
    const { page, errors } = await openPage("/reviews");
    const bar = page.locator("broker-reviews [part=histogram-bar]:not([disabled])").first();
    await bar.waitFor();
    const stars = Number((await bar.getAttribute("aria-label"))?.[0]);
    await page.locator("broker-reviews").screenshot({ path: join(OUTPUT, "reviews-histogram.png") });
    await bar.focus();
    await page.keyboard.press("Enter");
    await page.waitForFunction((n) => {
      const labels = [...(document.querySelector("broker-reviews")?.shadowRoot?.querySelectorAll("[part=review] [role=img]") ?? [])].map((s) => s.getAttribute("aria-label"));
      return labels.length > 0 && labels.every((l) => l === `Rated ${n} out of 5`);
    }, stars);
    expect(await bar.getAttribute("aria-pressed")).toBe("true");
    expect(await page.locator("broker-reviews [part=active-filter]").textContent()).toContain(`Showing only reviews with ${stars} star`);
    await page.locator("broker-reviews").screenshot({ path: join(OUTPUT, "reviews-filtered.png") });
    await page.getByRole("button", { name: "Show all reviews" }).click();
    await page.locator("broker-reviews [part=active-filter]").waitFor({ state: "detached" });
    expect(await bar.getAttribute("aria-pressed")).toBe("false");
    expect(errors).toEqual([]);
    await page.close();
  }, 30_000);

  test("reviews in dark French at 320 px, sorted lowest first", async () => {
    const { page, errors } = await openPage("/reviews-dark-fr", 320);
    await page.locator("broker-reviews [part=review]").first().waitFor();
    await page.getByLabel("Trier les avis").selectOption("lowest");
    await page.waitForFunction(() => {
      const r = [...(document.querySelector("broker-reviews")?.shadowRoot?.querySelectorAll("[part=review] [role=img]") ?? [])].map((s) => parseFloat(/([\d,]+) sur/.exec(s.getAttribute("aria-label") ?? "")?.[1]?.replace(",", ".") ?? "9"));
      return r.length > 0 && r.every((v, i) => i === 0 || r[i - 1]! <= v);
    });
    await finishNarrowPage(page, errors, "reviews-dark-fr-320.png");
  }, 30_000);

  test("theme=auto follows prefers-color-scheme live; keyboard focus is visible", async () => {
    const { page } = await openPage("/auto");
    const host = page.locator("broker-reviews");
    await page.locator("broker-reviews [part=review]").first().waitFor();
    const background = () => host.evaluate((el) => getComputedStyle(el).backgroundColor);
    await page.emulateMedia({ colorScheme: "light" });
    expect(await background()).toBe("rgb(255, 255, 255)");
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await background()).toBe("rgb(21, 24, 28)");

    const { page: quote } = await openPage("/quote");
    await quote.locator("broker-quote-form select").first().waitFor();
    await quote.keyboard.press("Tab");
    const focused = await quote.evaluate(() => {
      const active = document.querySelector("broker-quote-form")?.shadowRoot?.activeElement;
      return active ? { name: active.getAttribute("name"), outline: getComputedStyle(active).outlineStyle } : null;
    });
    expect(focused).toEqual({ name: "insuranceType", outline: "solid" });
    await page.close();
    await quote.close();
  }, 30_000);

  test("a key not allowed on this origin shows the site-owner message (403)", async () => {
    const { page } = await openPage("/wrong-origin");
    expect(await page.locator("broker-directory [part=problem]").textContent()).toContain("This website is not allowed to use this widget key");
    await page.locator("broker-directory").screenshot({ path: join(OUTPUT, "forbidden.png") });
    await page.close();
  }, 30_000);

  test("a bad key shows the site-owner message (401)", async () => {
    const { page } = await openPage("/bad-key");
    expect(await page.locator("broker-directory [part=problem]").textContent()).toContain("its key is missing, invalid, expired or revoked");
    await page.close();
  }, 30_000);

  test("the served script: JavaScript, cacheable, ETag revalidation", async () => {
    const res = await fetch(`${server.url}/widget.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/javascript; charset=utf-8");
    expect(res.headers.get("Cache-Control")).toContain("max-age");
    const etag = res.headers.get("ETag")!;
    expect((await fetch(`${server.url}/widget.js`, { headers: { "If-None-Match": etag } })).status).toBe(304);
  });
});
