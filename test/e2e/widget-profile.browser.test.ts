/**
 * Issue 29 end to end: the REAL server, a partner page on another port embedding widget.js, and
 * Debian's headless Chromium, in English and French, at 1280 px and 375 px. A visitor opens a
 * broker's profile from the directory with the keyboard only, reads it, pages its reviews, asks
 * that broker for a (travel) quote, compares quotes and leaves a lead that names the broker;
 * skeletons hold each widget's size (layout shift measured at 0); a server key in data-key is
 * refused with what to do; a French page gets the server's French errors.
 *
 * Screenshots land in test/e2e/screenshots/ (git-ignored); with README_SCREENSHOTS=1 the README's
 * copies in test/e2e/readme/ are written too.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { startTestServer, type TestServer } from "../support/server.ts";
import { closeBrowser, launchChromium } from "./browser.ts";
import { startPartnerSite, type PartnerSite } from "./partnerSite.ts";

const OUTPUT = join(import.meta.dir, "screenshots");
/** The README's pictures (committed; the top level of the repository is fixed, so they live beside the test that makes them). */
const README_SHOTS = join(import.meta.dir, "readme");
const EMBED_SCOPES = ["brokers:read", "reviews:read", "quotes:write", "leads:write"] as const;
const FOOTER = `<footer><h2>Partner footer</h2><p>Content below the widget: it must not move while the widget loads.</p></footer>`;

let server: TestServer;
let partner: PartnerSite;
let browser: Browser;
/** A key with leads:read in the partner's workspace, for checking what the widget's leads say. */
let inboxKey: string;
let reviewed: { slug: string; reviewCount: number };

beforeAll(async () => {
  mkdirSync(OUTPUT, { recursive: true });
  server = await startTestServer();
  const pages: Parameters<typeof startPartnerSite>[1] = {};
  partner = startPartnerSite(server.url, pages);
  const key = await server.createKey({ workspace: "profile-partner", origins: [partner.origin], scopes: [...EMBED_SCOPES] });
  const serverKey = await server.createKey({ workspace: "profile-partner" });
  inboxKey = serverKey;
  reviewed = await brokerWithManyReviews(key);
  const directory = (lang: string, limit: string) => ({ lang, footer: FOOTER, widgets: [{ type: "directory" as const, key, attributes: { limit, theme: "light" } }] });
  Object.assign(pages, {
    "/directory-en": directory("en", "4"),
    "/directory-fr": directory("fr-CA", "4"),
    "/reviews-en": { footer: FOOTER, widgets: [{ type: "reviews", key, attributes: { broker: reviewed.slug, theme: "light" } }] },
    "/reviews-fr": { lang: "fr-CA", footer: FOOTER, widgets: [{ type: "reviews", key, attributes: { broker: reviewed.slug, theme: "dark" } }] },
    "/server-key": { widgets: [{ type: "directory", key: serverKey }] },
  });
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await closeBrowser(browser);
  await partner?.stop();
  await server?.close();
});

/** The demo broker whose reviews fill more than one page (the list starts with the most reviewed). */
async function brokerWithManyReviews(key: string): Promise<{ slug: string; reviewCount: number }> {
  const res = await fetch(`${server.url}/api/v1/embed/brokers?limit=1&sort=reviews`, { headers: { Authorization: `Bearer ${key}`, Origin: partner.origin } });
  expect(res.status).toBe(200);
  const broker = ((await res.json()) as { data: { slug: string; reviewCount: number }[] }).data[0]!;
  expect(broker.reviewCount).toBeGreaterThan(10);
  return broker;
}

async function openPage(path: string, width: number): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  page.setDefaultTimeout(10_000);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${partner.origin}${path}`);
  return { page, errors };
}

/** `readme`: the README shows this one. */
async function shoot(target: Page | Locator, name: string, readme = false): Promise<void> {
  const path = join(OUTPUT, name);
  await target.screenshot({ path });
  if (readme && process.env.README_SCREENSHOTS === "1") {
    mkdirSync(README_SHOTS, { recursive: true });
    copyFileSync(path, join(README_SHOTS, name));
  }
}

/** The focused element, through every shadow root: what a keyboard user is on. */
const focused = (page: Page) =>
  page.evaluate(() => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return {
      part: active?.getAttribute("part") ?? "",
      text: (active?.getAttribute("aria-label") ?? active?.textContent ?? "").trim(),
      tag: active?.tagName.toLowerCase() ?? "",
    };
  });

/** Presses Tab (or Shift+Tab) until the focused element matches, as a keyboard user would. */
async function tabTo(page: Page, matches: (f: Awaited<ReturnType<typeof focused>>) => boolean, max = 80, key = "Tab"): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    if (matches(await focused(page))) return;
  }
  throw new Error(`no focusable element matched after ${max} presses of ${key}; on ${JSON.stringify(await focused(page))}`);
}

/** Cumulative layout shift from now on (shifts right after input excluded, as CLS does). */
async function startClsMeter(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __cls: number };
    w.__cls = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) w.__cls += entry.value;
      }
    }).observe({ type: "layout-shift" });
  });
}

const readCls = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) =>
        // Two frames after the last change: any shift has been reported by then.
        requestAnimationFrame(() => requestAnimationFrame(() => resolve((window as unknown as { __cls: number }).__cls))),
      ),
  );

/** Holds the embed API's answers until released, so the loading state can be seen and measured. */
async function holdApi(page: Page): Promise<() => void> {
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route(`${server.url}/api/v1/embed/**`, async (route) => {
    await gate;
    await route.continue();
  });
  return release;
}

describe("skeletons hold the widget's final size: no layout shift when the data arrives", () => {
  test("the meter is not blind: the same page without a skeleton's room shifts its footer", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const release = await holdApi(page);
    await page.goto(`${partner.origin}/directory-en`);
    await page.locator("broker-directory [part~=skeleton]").waitFor();
    await startClsMeter(page);
    // What bare "Loading…" text did: the widget's room appears only with the data.
    await page.evaluate(() => {
      const spacer = document.createElement("div");
      spacer.style.height = "300px";
      document.querySelector("footer")!.before(spacer);
    });
    release();
    expect(await readCls(page)).toBeGreaterThan(0);
    await page.close();
  }, 30_000);

  for (const width of [1280, 375]) {
    for (const [path, tag, content] of [
      ["/directory-en", "broker-directory", "[part=card]"],
      ["/reviews-en", "broker-reviews", "[part=review]"],
      ["/directory-fr", "broker-directory", "[part=card]"],
      ["/reviews-fr", "broker-reviews", "[part=review]"],
    ] as const) {
      test(`${path} at ${width} px: CLS 0`, async () => {
        const page = await browser.newPage({ viewport: { width, height: 900 } });
        page.setDefaultTimeout(10_000);
        const release = await holdApi(page);
        await page.goto(`${partner.origin}${path}`);
        await page.locator(`${tag} [part~=skeleton]`).waitFor();
        if (width === 1280 && path.endsWith("-en")) await shoot(page, `skeleton-${tag}.png`, tag === "broker-directory");
        await startClsMeter(page);
        release();
        await page.locator(`${tag} ${content}`).first().waitFor();
        await page.waitForTimeout(300);
        expect(await readCls(page)).toBe(0);
        await page.close();
      }, 30_000);
    }
  }
});

describe("the broker profile, keyboard only", () => {
  for (const { lang, width } of [
    { lang: "en", width: 1280 },
    { lang: "fr", width: 375 },
  ] as const) {
    const words =
      lang === "en"
        ? { close: "Close", more: "Show more reviews", ask: "Ask this broker for a quote", perTrip: "for the trip", compare: "Compare side by side (2)", cheapest: "Lowest price" }
        : { close: "Fermer", more: "Afficher plus d’avis", ask: "Demander une soumission à ce courtier", perTrip: "pour le voyage", compare: "Comparer côte à côte (2)", cheapest: "Prix le plus bas" };

    test(`${lang} at ${width} px: open from a card, read, Show more, Escape and Back close it, focus returns`, async () => {
      const { page, errors } = await openPage(`/directory-${lang}`, width);
      await page.locator("broker-directory [part=card]").first().waitFor();
      await tabTo(page, (f) => f.part === "card-link");
      const card = await focused(page);
      await page.keyboard.press("Enter");
      const dialog = page.locator("broker-profile-dialog dialog");
      await page.locator("broker-profile [part=profile]").waitFor();
      expect(await dialog.evaluate((d) => (d as HTMLDialogElement).open)).toBe(true);
      expect(await dialog.getAttribute("aria-label")).toContain(card.text);
      expect((await focused(page)).text).toBe(words.close);
      const hash = await page.evaluate(() => location.hash);
      expect(hash).toMatch(/^#[a-z0-9-]+$/);

      // What the visitor needs to reach the broker.
      const profile = page.locator("broker-profile [part=profile]");
      expect(await profile.locator("a[href^='tel:']").count()).toBeGreaterThan(0);
      expect(await profile.locator("[part=offices] li").count()).toBeGreaterThan(0);
      expect(await profile.locator("[part=offices] a[href^='https://www.openstreetmap.org/']").count()).toBeGreaterThan(0);
      expect(await profile.locator("broker-reviews [part=histogram-bar]").count()).toBe(5);
      await page.locator("broker-profile broker-reviews [part=review]").first().waitFor();
      await shoot(page, `profile-${lang}-${width}.png`, true);

      // Show more, if this broker has more than one page: focus lands on the first new review.
      const reviews = page.locator("broker-profile broker-reviews [part=review]");
      const before = await reviews.count();
      if (await page.locator("broker-profile broker-reviews [part~=show-more]").count()) {
        await tabTo(page, (f) => f.text === words.more);
        await page.keyboard.press("Enter");
        await page.waitForFunction((n) => {
          const inner = document.querySelector("broker-directory")?.shadowRoot?.querySelector("broker-profile-dialog")?.shadowRoot?.querySelector("broker-profile")?.shadowRoot?.querySelector("broker-reviews");
          return (inner?.shadowRoot?.querySelectorAll("[part=review]").length ?? 0) > n;
        }, before);
        expect((await focused(page)).part).toBe("review");
      }

      // Escape closes it; focus goes back to the card link; the fragment is gone.
      await page.keyboard.press("Escape");
      await page.waitForFunction(() => location.hash === "");
      expect(await dialog.evaluate((d) => (d as HTMLDialogElement).open)).toBe(false);
      expect(await focused(page)).toMatchObject({ part: "card-link", text: card.text });

      // Enter opens it again; the Back button closes it.
      await page.keyboard.press("Enter");
      await page.locator("broker-profile [part=profile]").waitFor();
      expect(await page.evaluate(() => location.hash)).toBe(hash);
      await page.goBack();
      await page.waitForFunction(() => location.hash === "");
      expect(await dialog.evaluate((d) => (d as HTMLDialogElement).open)).toBe(false);
      // Forward opens it once more (the fragment is the profile's address).
      await page.goForward();
      await page.waitForFunction(() => {
        const d = document.querySelector("broker-directory")?.shadowRoot?.querySelector("broker-profile-dialog")?.shadowRoot?.querySelector("dialog");
        return d?.open === true;
      });
      if (width === 375) {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
      }
      expect(errors).toEqual([]);
      await page.close();
    }, 60_000);

    test(`${lang} at ${width} px: ask this broker for a travel quote, compare, and leave a lead that names the broker`, async () => {
      const { page, errors } = await openPage(`/directory-${lang}`, width);
      await page.locator("broker-directory [part=card]").first().waitFor();
      await tabTo(page, (f) => f.part === "card-link");
      await page.keyboard.press("Enter");
      await page.locator("broker-profile [part=profile]").waitFor();
      const slug = (await page.evaluate(() => location.hash)).slice(1);
      await tabTo(page, (f) => f.text === words.ask);
      await page.keyboard.press("Enter");
      const form = page.locator("broker-profile broker-quote-form");
      await form.locator("form").waitFor();
      expect((await focused(page)).tag).toBe("select");

      // The broker's own province is chosen; its primary office's postal code belongs to it.
      const office = await primaryOffice(slug);
      await form.locator("select[name=insuranceType]").selectOption("Travel");
      expect(await form.locator("select[name=province]").inputValue()).toBe(office.province);
      await form.locator("input[name=postalCode]").fill(office.postalCode);
      await form.locator("input[name='details.tripDays']").fill("10");
      await form.locator("input[name='details.travellerAges']").fill("34, 36");
      await form.locator("select[name='details.destination']").selectOption("usa");
      await form.locator("[part~=submit]").press("Enter");
      const quotes = form.locator("[part=quote]");
      await quotes.first().waitFor();
      const count = await quotes.count();
      expect(count).toBeGreaterThan(1);

      // One price per trip; unique names; one cheapest.
      const firstText = (await quotes.first().textContent()) ?? "";
      expect(firstText).toContain(words.perTrip);
      expect(firstText).not.toMatch(/\/month|\/mois/);
      const names = await form.locator("[part=quote] button").evaluateAll((buttons) => buttons.map((b) => b.getAttribute("aria-label") ?? b.textContent));
      expect(new Set(names).size).toBe(count);
      expect(await form.locator("[part=cheapest-badge]").count()).toBe(1);
      expect(await form.locator("[part=cheapest-badge]").textContent()).toBe(words.cheapest);

      // Compare two, by keyboard.
      const boxes = form.locator("[part=compare]");
      await boxes.nth(0).press("Space");
      await boxes.nth(1).press("Space");
      await form.getByRole("button", { name: words.compare }).press("Enter");
      await form.locator("[part=comparison] table").waitFor();
      expect(await form.locator("[part=comparison] thead th").count()).toBe(2);
      await shoot(page, `quote-compare-${lang}-${width}.png`, lang === "en");

      // A lead from the first quote: it names the broker.
      await form.locator("[part=quote] button").first().press("Enter");
      const lead = form.locator("broker-lead-form");
      await lead.locator("form").waitFor();
      await lead.locator("input[name=name]").fill("Ada Lovelace");
      await lead.locator("input[name=email]").fill(`ada-${lang}@example.com`);
      await lead.locator("input[name=phone]").fill("416-555-0123");
      await lead.locator("button[type=submit]").press("Enter");
      await lead.locator("[part=lead-done]").waitFor();
      const leads = await fetch(`${server.url}/api/v1/leads?limit=20`, { headers: { Authorization: `Bearer ${inboxKey}` } });
      const body = (await leads.json()) as { data: { email: string; brokerSlug: string | null }[] };
      expect(body.data.find((l) => l.email === `ada-${lang}@example.com`)?.brokerSlug).toBe(slug);
      expect(errors).toEqual([]);
      await page.close();
    }, 60_000);
  }
});

async function primaryOffice(slug: string): Promise<{ province: string; postalCode: string }> {
  const res = await fetch(`${server.url}/api/v1/brokers/${slug}`, { headers: { Authorization: `Bearer ${inboxKey}` } });
  const { data } = (await res.json()) as { data: { locations: { isPrimary: boolean; province: string; postalCode: string }[] } };
  return data.locations.find((o) => o.isPrimary)!;
}

describe("reviews widget", () => {
  test("Show more pages through the broker's reviews", async () => {
    const { page, errors } = await openPage("/reviews-en", 1280);
    const reviews = page.locator("broker-reviews [part=review]");
    await reviews.first().waitFor();
    expect(await reviews.count()).toBe(5);
    await page.locator("broker-reviews [part~=show-more]").click();
    await page.waitForFunction(() => (document.querySelector("broker-reviews")?.shadowRoot?.querySelectorAll("[part=review]").length ?? 0) === 10);
    expect(await page.locator("broker-reviews [part=count]").textContent()).toContain(`Showing 10 of ${reviewed.reviewCount} reviews.`);
    await shoot(page.locator("broker-reviews"), "reviews-show-more.png");
    expect(errors).toEqual([]);
    await page.close();
  }, 30_000);
});

describe("errors a partner meets", () => {
  test("a server key in data-key is refused, and the notice says to make an embed key with --origins", async () => {
    const { page } = await openPage("/server-key", 1280);
    const problem = page.locator("broker-directory [part=problem]");
    await problem.waitFor();
    expect(await problem.textContent()).toContain("server key");
    expect(await problem.textContent()).toContain("--origins");
    await shoot(problem, "server-key-refused.png", true);
    await page.close();
  }, 30_000);

  test("a French page shows the server's French error for a bad Near", async () => {
    const { page } = await openPage("/directory-fr", 1280);
    await page.locator("broker-directory [part=card]").first().waitFor();
    const sent: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("near=")) sent.push(r.headers()["accept-language"] ?? "");
    });
    await page.locator("broker-directory input[name=near]").fill("zzz");
    await page.locator("broker-directory input[name=near]").press("Enter");
    await page.locator("broker-directory [part=problem]").waitFor();
    expect(sent).toContain("fr");
    const french = await fetch(`${server.url}/api/v1/brokers?near=zzz`, { headers: { Authorization: `Bearer ${inboxKey}`, "Accept-Language": "fr" } });
    const { issues } = (await french.json()) as { issues: { path: string; message: string }[] };
    const message = issues.find((i) => i.path === "near")!.message;
    expect(await page.locator("broker-directory").evaluate((el) => el.shadowRoot?.textContent ?? "")).toContain(message);
    await page.close();
  }, 30_000);
});
