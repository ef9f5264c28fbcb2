/**
 * The workspace console end to end, in headless Chromium against the real server: console-link
 * → sign in → create a key → use it over HTTP → it shows in Usage → revoke → 401 → a lead sent
 * through the quote widget appears in Leads → status change with a note → Export CSV holds it.
 * Once in English and once in French. Screenshots go to test/e2e/screenshots/console-*.png.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { consoleTranslator, type Lang } from "../../widget/console/i18n.ts";
import { tempDir } from "../cli/cliHarness.ts";
import { closeBrowser, launchChromium } from "./browser.ts";
import { consolePage, startConsoleServer, withServerOutput, type ConsoleServer } from "./consoleHarness.ts";
import { listenerState } from "./listenerState.ts";
import { startPartnerSite, type PartnerSite } from "./partnerSite.ts";

const OUTPUT = join(import.meta.dir, "screenshots");
const folder = tempDir();
/** The server as the operator runs it (consoleHarness.ts says why a child process), with the demo directory. */
let server: ConsoleServer;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(OUTPUT, { recursive: true });
  server = await startConsoleServer(folder.path("directory.db"));
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await closeBrowser(browser);
  await server?.stop();
  folder.remove();
}, 30_000);

/** The operator's step: `console-link --workspace acme --json`, against the running server's database. */
const consoleLink = () => server.link("acme");

/** A key made by the operator's CLI on the server's database (a running server sees it at its next request). */
async function createKey(options: { workspace: string; origins: string[]; scopes: string[] }): Promise<string> {
  return (await server.cliKey(["--workspace", options.workspace, "--origins", options.origins.join(","), "--scopes", options.scopes.join(",")])).key;
}

/**
 * A partner's page with the quote widget, on its own origin, with an embed key of the workspace
 * allowed there: one per journey, so each test stands alone. (A partner site shared by both
 * journeys refused the second journey's connection twice in CI, after serving the first.)
 */
async function startQuotePartner(): Promise<PartnerSite> {
  const pages: Parameters<typeof startPartnerSite>[1] = {};
  const partner = startPartnerSite(server.url, pages);
  const embedKey = await createKey({ workspace: "acme", origins: [partner.origin], scopes: ["brokers:read", "quotes:write", "leads:write"] });
  pages["/quote"] = { widgets: [{ type: "quote", key: embedKey, attributes: { province: "ON" } }] };
  return partner;
}

/** A visitor asks for quotes in the partner page's widget and leaves their details. */
async function leadThroughWidget(context: BrowserContext, name: string, email: string): Promise<void> {
  const partner = await startQuotePartner();
  try {
    await visitPartner(context, partner, name, email);
  } finally {
    await partner.stop();
  }
}

async function visitPartner(context: BrowserContext, partner: PartnerSite, name: string, email: string): Promise<void> {
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  await page.goto(`${partner.origin}/quote`);
  await page.getByLabel("Postal code").fill("M5V 3L9");
  await page.getByLabel("Vehicle model year").fill("2021");
  await page.getByLabel("Vehicle make").fill("Toyota");
  await page.getByLabel("Vehicle model", { exact: true }).fill("RAV4");
  await page.getByLabel("Driver's age").fill("38");
  await page.getByLabel("No at-fault claims").selectOption("yes");
  await page.getByRole("button", { name: "Get my quotes" }).click();
  await page.locator("broker-quote-form [part=quote]").first().waitFor();
  await page.getByRole("button", { name: "Have a broker contact me" }).click();
  await page.getByLabel("Full name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Phone").fill("416-555-0123");
  await page.getByRole("button", { name: "Send my request" }).click();
  await page.locator("broker-quote-form [part=lead-done]").waitFor();
  await page.close();
}

async function journey(lang: Lang): Promise<void> {
  const t = consoleTranslator(lang);
  const shot = (page: Page, name: string) => page.screenshot({ path: join(OUTPUT, `console-${lang}-${name}.png`), fullPage: true });
  const context = await browser.newContext({ locale: lang === "fr" ? "fr-CA" : "en-CA", viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const { page, problems } = await consolePage(context);
  const keyName = `${lang} server key`;
  const leadName = lang === "fr" ? "Élise Côté" : "Ada Lovelace";

  // Sign in: opening the link spends nothing; its one button signs in and lands on a URL without the token.
  await page.goto(await consoleLink());
  await shot(page, "sign-in");
  await page.getByRole("button", { name: lang === "fr" ? "Se connecter" : "Sign in" }).click();
  await page.waitForURL(`${server.url}/console/keys`);
  await page.getByRole("heading", { level: 1, name: t("keys.heading") }).waitFor();

  // Create a key; the full key is shown once.
  await page.getByRole("button", { name: t("keys.create") }).click();
  const dialog = page.getByRole("dialog", { name: t("create.title") });
  await dialog.getByLabel(t("create.name")).fill("");
  await dialog.getByRole("button", { name: t("create.submit") }).click();
  await expect(dialog.getByText(t("error.required")).isVisible()).resolves.toBe(true); // the field's own message
  await dialog.getByLabel(t("create.name")).fill(keyName);
  await dialog.getByLabel(t("create.rateLimit")).fill("2");
  await shot(page, "create-key");
  await dialog.getByRole("button", { name: t("create.submit") }).click();
  const secret = page.getByRole("dialog", { name: new RegExp(t("secret.title")) });
  const key = await secret.getByLabel(t("secret.label")).inputValue();
  expect(key).toMatch(/^brk_[A-Za-z0-9_-]{43}$/);
  await shot(page, "key-shown-once");
  await secret.getByRole("button", { name: t("close") }).click();

  // The key works over HTTP; its third request in a minute is refused by its rate limit of 2.
  for (const expected of [200, 200, 429]) {
    expect((await fetch(`${server.url}/api/v1/brokers?limit=1`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(expected);
  }

  // Usage shows it.
  await page.getByRole("link", { name: t("nav.usage") }).click();
  await page.getByRole("heading", { level: 1, name: t("usage.heading") }).waitFor();
  const usageRow = page.getByRole("row", { name: new RegExp(keyName) });
  await usageRow.waitFor();
  expect(await usageRow.getByRole("cell").nth(1).textContent()).toBe("2");
  expect(await usageRow.getByRole("cell").nth(2).textContent()).toBe("1");
  await page.locator("bd-usage-chart canvas").first().waitFor();
  await shot(page, "usage");

  // Revoke it: the next request with it is a 401.
  await page.getByRole("link", { name: t("nav.keys") }).click();
  const keyRow = page.getByRole("row", { name: new RegExp(keyName) });
  await keyRow.getByRole("button", { name: t("revoke") }).click();
  const confirm = page.getByRole("dialog", { name: t("revoke.title", { name: keyName }) });
  await confirm.getByRole("button", { name: t("revoke"), exact: true }).click();
  // Revoked keys are hidden until asked for (issue 29).
  await keyRow.waitFor({ state: "detached" });
  // Its label counts the hidden keys, which the other journey's revoked key (same workspace) adds to.
  await page.getByLabel(t("keys.showRevoked", { n: 0 }).replace(/\s*\(0\)$/, "")).check();
  await keyRow.getByText(t("status.revoked")).waitFor();
  expect((await fetch(`${server.url}/api/v1/brokers?limit=1`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(401);
  await shot(page, "keys");

  // A lead through the quote widget appears in the inbox.
  await leadThroughWidget(context, leadName, `${lang}@example.com`);
  await page.getByRole("link", { name: t("nav.leads") }).click();
  await page.getByRole("heading", { level: 1, name: t("leads.heading") }).waitFor();
  await page.getByLabel(t("leads.search")).fill(leadName.slice(0, 4));
  await page.getByRole("button", { name: t("leads.apply") }).click();
  const leadLink = page.getByRole("link", { name: leadName });
  await leadLink.waitFor();
  await shot(page, "leads");

  // Its page: the quote's offers, then a status change with a note, kept in the history.
  await leadLink.click();
  await page.getByRole("heading", { level: 1, name: new RegExp(leadName) }).waitFor();
  await page.getByRole("table", { name: t("lead.offers") }).waitFor();
  await page.getByLabel(t("lead.newStatus")).selectOption("contacted");
  await page.getByLabel(t("lead.note")).fill("Called, left a message — rappeler jeudi");
  await page.getByRole("button", { name: t("save") }).click();
  await page.getByText("Called, left a message — rappeler jeudi").waitFor();
  expect(await page.getByRole("heading", { level: 1 }).textContent()).toContain(t("lead.status.contacted"));
  await shot(page, "lead");

  // Export CSV of the current filter: the lead is in it, with the BOM.
  await page.getByRole("link", { name: `← ${t("lead.back")}` }).click();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: t("leads.export") }).click()]);
  const bytes = readFileSync((await download.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const csv = bytes.toString("utf8");
  expect(csv).toContain(leadName);
  expect(csv).toContain('"contacted"');

  // Dark theme, then Sign out.
  await page.getByLabel(t("theme")).selectOption("dark");
  await shot(page, "leads-dark");
  await page.getByRole("button", { name: t("signOut") }).click();
  await page.waitForURL(`${server.url}/console`);
  expect(await page.content()).toContain("console-link --workspace");
  expect(problems).toEqual([]);
  await context.close();
}

describe("workspace console in Chromium", () => {
  test("the whole journey in English", () => withServerOutput(server, () => journey("en")), 90_000);
  test("the whole journey in French", () => withServerOutput(server, () => journey("fr")), 90_000);

  test("the language switch changes the console without a reload; keyboard reaches the navigation", async () => {
    const context = await browser.newContext({ locale: "en-CA" });
    const { page, problems } = await consolePage(context);
    const link = await consoleLink();
    await page.goto(link).catch(async (error: Error) => {
      throw new Error(`${error.message}\nthe server as the test process sees it: ${JSON.stringify(await listenerState(server.url))}`);
    });
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { level: 1, name: "API keys" }).waitFor();
    await page.getByLabel("Language").selectOption("fr");
    await page.getByRole("heading", { level: 1, name: "Clés d’API" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("fr");
    // The choice is kept; and from the top of a freshly loaded page (a known focus starting
    // point, whatever the select did with focus) the first Tab lands on the navigation.
    await page.goto(`${server.url}/console/keys`);
    await page.getByRole("heading", { level: 1, name: "Clés d’API" }).waitFor();
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => document.querySelector("bd-console")?.shadowRoot?.activeElement?.textContent);
    // One comparison, so a failure shows the focus and any page problem together.
    expect({ focused, problems }).toEqual({ focused: "Clés d’API", problems: [] });
    await context.close();
  }, 30_000);
});
