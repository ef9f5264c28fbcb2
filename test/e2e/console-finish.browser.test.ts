/**
 * The console finished (issue 29), in headless Chromium against the real server, in English
 * and French, at 1280 px and at 375 px: "Copy embed code" with its type and theme chooser and
 * live preview; embed keys showing only the scopes they have; editing a key without rolling
 * it; revoked keys hidden until asked for; a lead's page with what the visitor entered and a
 * Canadian phone; French insurance types and uPlot's legend; every page without horizontal
 * overflow at 375 px; phones exported to CSV as they are. The harness is consoleHarness.ts:
 * `serve` as a child process, keys and sign-in links from the CLI.
 * Screenshots go to test/e2e/screenshots/console-finish-*.png.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { consoleTranslator, type Lang } from "../../widget/console/i18n.ts";
import { embedSnippet } from "../../widget/console/embedSnippet.ts";
import { translator } from "../../widget/i18n.ts";
import { tempDir } from "../cli/cliHarness.ts";
import { eventually } from "../support/eventually.ts";
import { consolePage, expectNoOverflow, startConsoleServer, withOwnBrowser, withServerOutput, type ConsoleServer } from "./consoleHarness.ts";

const OUTPUT = join(import.meta.dir, "screenshots");
const folder = tempDir();
let server: ConsoleServer;

beforeAll(async () => {
  mkdirSync(OUTPUT, { recursive: true });
  server = await startConsoleServer(folder.path("directory.db"));
}, 60_000);

afterAll(async () => {
  await server?.stop();
  folder.remove();
}, 30_000);

const api = (key: string, path: string, body?: unknown) =>
  fetch(`${server.url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** Two leads in the workspace: an Auto one following a quote (what the visitor entered), and a Tenant one. */
async function seedLeads(serverKey: string, who: string): Promise<void> {
  const quote = await api(serverKey, "/api/v1/embed/quotes", {
    insuranceType: "Auto",
    province: "ON",
    postalCode: "M5V 3L9",
    details: { vehicleYear: 2021, vehicleMake: "Toyota", vehicleModel: "RAV4", driverAge: 38, cleanRecord: true, annualKm: 15000 },
  });
  expect(quote.status).toBe(201);
  const { data } = (await quote.json()) as { data: { quoteId: string } };
  for (const lead of [
    { name: `${who} Auto`, email: "auto@example.ca", phone: "416-555-0123", insuranceType: "Auto", quoteId: data.quoteId },
    { name: `${who} Tenant`, email: "tenant@example.ca", phone: "(514) 555-0199", insuranceType: "Tenant" },
  ]) {
    expect((await api(serverKey, "/api/v1/leads", lead)).status).toBe(201);
  }
}

async function journey(browser: Browser, lang: Lang, width: 1280 | 375): Promise<void> {
  const t = consoleTranslator(lang);
  const w = translator(lang);
  const workspace = `finish-${lang}-${width}`;
  const shot = (page: Page, name: string) => page.screenshot({ path: join(OUTPUT, `console-finish-${lang}-${width}-${name}.png`), fullPage: true });
  const context = await browser.newContext({ locale: lang === "fr" ? "fr-CA" : "en-CA", viewport: { width, height: 900 }, acceptDownloads: true });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
  const { page, problems } = await consolePage(context);
  const serverKey = await server.cliKey(["--workspace", workspace, "--name", "crm"]);
  // An embed key made by the CLI without --scopes: the embed defaults, never leads:read.
  const cliEmbed = await server.cliKey(["--workspace", workspace, "--name", "cli widget", "--origins", "https://cli.example"]);
  expect(cliEmbed.scopes).toEqual(["brokers:read", "reviews:read", "quotes:write", "leads:write"]);
  await seedLeads(serverKey.key, lang === "fr" ? "Élise" : "Ada");

  await page.goto(await server.link(workspace));
  await page.getByRole("button", { name: lang === "fr" ? "Se connecter" : "Sign in" }).click();
  await page.getByRole("heading", { level: 1, name: t("keys.heading") }).waitFor();
  if (width === 375) {
    // A compact header: well under a third of the screen.
    const header = await page.locator("bd-console header").boundingBox();
    expect(header!.height).toBeLessThan(900 / 4);
  }

  // Create an embed key: with origins typed, the scope boxes follow the embed defaults (no leads:read).
  await page.getByRole("button", { name: t("keys.create") }).click();
  const create = page.getByRole("dialog", { name: t("create.title") });
  await create.getByLabel(t("create.name")).fill("site widget");
  await create.getByLabel(t("create.origins")).fill("https://partner.example");
  expect(await create.getByRole("checkbox", { name: /leads:read/ }).isChecked()).toBe(false);
  expect(await create.getByRole("checkbox", { name: /leads:write/ }).isChecked()).toBe(true);
  await create.getByRole("button", { name: t("create.submit") }).click();

  // The new key's secret dialog offers its embed code with the key filled in.
  const secret = page.getByRole("dialog", { name: new RegExp(t("secret.title")) });
  const key = await secret.getByLabel(t("secret.label")).inputValue();
  await secret.getByRole("button", { name: t("embed.copy") }).click();
  const embed = page.getByRole("dialog", { name: t("embed.title", { name: "site widget" }) });
  expect(await embed.getByLabel(t("embed.key")).inputValue()).toBe(key);
  await embed.getByRole("radio", { name: t("embed.type.quote") }).check();
  await embed.getByRole("radio", { name: t("theme.dark") }).check();
  const expected = embedSnippet({ widgetUrl: `${server.url}/widget.js`, key, type: "quote", theme: "dark" });
  await eventually(async () => (await embed.getByLabel(t("embed.snippet")).inputValue()) === expected);
  expect(await embed.getByLabel(t("embed.snippet")).inputValue()).toBe(expected);
  // The live preview is the widget itself, of the chosen type and theme, in the console's language.
  const preview = embed.locator("broker-quote-form[theme=dark]");
  await preview.locator("form").waitFor();
  expect(await preview.getAttribute("lang")).toBe(lang);
  await embed.getByRole("button", { name: t("embed.copy") }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(expected);
  if (width === 375) await expectNoOverflow(page, width, "embed code dialog");
  await shot(page, "embed-code");
  await embed.getByRole("button", { name: t("close") }).click();

  // Scopes shown truthfully: no embed key has a leads:read chip.
  const row = (name: string) => page.locator("bd-keys-page tbody tr", { hasText: name });
  for (const name of ["site widget", "cli widget"]) {
    await row(name).waitFor();
    expect(await row(name).locator(".badge").allTextContents()).toEqual(["brokers:read", "reviews:read", "quotes:write", "leads:write", t("status.active")]);
  }

  // An existing key's embed code: the console cannot know its secret, says so, and takes it pasted.
  await row("cli widget").getByRole("button", { name: t("embed.button") }).click();
  const cliDialog = page.getByRole("dialog", { name: t("embed.title", { name: "cli widget" }) });
  expect(await cliDialog.getByLabel(t("embed.key")).inputValue()).toBe("");
  await cliDialog.getByText(t("embed.keyHint", { prefix: cliEmbed.key.slice(0, 10) })).waitFor();
  await cliDialog.getByLabel(t("embed.key")).fill("brk_wrong");
  await cliDialog.getByText(t("embed.keyMismatch", { prefix: cliEmbed.key.slice(0, 10) })).waitFor();
  await cliDialog.getByLabel(t("embed.key")).fill(cliEmbed.key);
  await cliDialog.getByRole("radio", { name: t("embed.type.reviews") }).check();
  await cliDialog.locator("broker-reviews").waitFor();
  // The type and theme chosen last time are kept; a reviews widget names a published broker to start from.
  await eventually(async () => /data-broker="[a-z0-9-]+"/.test(await cliDialog.getByLabel(t("embed.snippet")).inputValue()));
  expect(await cliDialog.getByLabel(t("embed.snippet")).inputValue()).toMatch(new RegExp(`data-key="${cliEmbed.key}" data-type="reviews" data-theme="dark" data-broker="[a-z0-9-]+"></script>$`));
  await cliDialog.getByRole("button", { name: t("close") }).click();

  // Edit a key without rolling it: a limit past the server's ceiling is refused, then name, limit and origins change.
  await row("site widget").getByRole("button", { name: t("edit") }).click();
  const edit = page.getByRole("dialog", { name: t("edit.title", { name: "site widget" }) });
  await edit.getByLabel(t("create.rateLimit")).fill("20000");
  await edit.getByRole("button", { name: t("save") }).click();
  await edit.getByRole("alert").waitFor();
  await edit.getByLabel(t("create.name")).fill("shop widget");
  await edit.getByLabel(t("create.rateLimit")).fill("250");
  await edit.getByLabel(t("edit.origins")).fill("https://partner.example\nhttps://shop.example");
  if (width === 375) await expectNoOverflow(page, width, "edit dialog");
  await shot(page, "edit-key");
  await edit.getByRole("button", { name: t("save") }).click();
  await row("shop widget").getByText("https://shop.example").waitFor();
  expect(await row("shop widget").textContent()).toContain(t("perMinute", { n: "250" }));
  // The same secret still works, from the new origin.
  const fromShop = await fetch(`${server.url}/api/v1/embed/brokers?limit=1`, { headers: { Authorization: `Bearer ${key}`, Origin: "https://shop.example" } });
  expect(fromShop.status).toBe(200);

  // Revoked keys are hidden until asked for.
  await row("crm").getByRole("button", { name: t("revoke") }).click();
  await page.getByRole("dialog", { name: t("revoke.title", { name: "crm" }) }).getByRole("button", { name: t("revoke"), exact: true }).click();
  await row("crm").waitFor({ state: "detached" });
  await page.getByLabel(t("keys.showRevoked", { n: 1 })).check();
  await row("crm").getByText(t("status.revoked")).waitFor();
  if (width === 375) await expectNoOverflow(page, width, "keys");
  await shot(page, "keys");

  // Leads: insurance types in the console's language, phones as Canadians write them.
  await page.getByRole("link", { name: t("nav.leads") }).click();
  await page.getByRole("heading", { level: 1, name: t("leads.heading") }).waitFor();
  await page.locator("bd-leads-page tbody tr", { hasText: "tenant@example.ca" }).waitFor();
  const table = await page.locator("bd-leads-page tbody").textContent();
  expect(table).toContain(w("line.Tenant"));
  expect(table).toContain("(416) 555-0123");
  expect(table).toContain("(514) 555-0199");
  expect(table).not.toContain("+1416");
  if (width === 375) await expectNoOverflow(page, width, "leads");
  await shot(page, "leads");

  // CSV: phones as stored, no apostrophe.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: t("leads.export") }).click()]);
  const csv = readFileSync((await download.path())!).toString("utf8");
  expect(csv).toContain('"+14165550123"');
  expect(csv).not.toContain("'+1");

  // A lead's page: what the visitor entered, with the quote form's own labels.
  await page.getByRole("link", { name: lang === "fr" ? "Élise Auto" : "Ada Auto" }).click();
  await page.getByRole("heading", { level: 3, name: t("lead.details") }).waitFor();
  const details = page.locator("bd-lead-page dl.details");
  const text = await details.textContent();
  for (const part of [w("field.vehicleMake"), "Toyota", w("field.vehicleModel"), "RAV4", w("field.driverAge"), "38", w("field.vehicleYear"), "2021", w("yes")]) {
    expect(text).toContain(part);
  }
  expect(await page.locator("bd-lead-page a[href^='tel:']").first().textContent()).toBe("(416) 555-0123");
  if (width === 375) await expectNoOverflow(page, width, "lead");
  await shot(page, "lead");

  // Usage: uPlot's legend names the day in the console's language, never "Time".
  await page.getByRole("link", { name: t("nav.usage") }).click();
  await page.getByRole("heading", { level: 1, name: t("usage.heading") }).waitFor();
  const legend = page.locator("bd-usage-chart .u-legend .u-series").first();
  await legend.waitFor();
  expect((await legend.textContent())?.trim()).toStartWith(t("usage.day"));
  expect(await page.locator("bd-usage-chart .u-legend").textContent()).not.toContain("Time");
  if (width === 375) await expectNoOverflow(page, width, "usage");
  await shot(page, "usage");

  await page.getByRole("link", { name: t("nav.webhooks") }).click();
  await page.getByRole("heading", { level: 1, name: t("webhooks.heading") }).waitFor();
  if (width === 375) await expectNoOverflow(page, width, "webhooks");
  expect(problems).toEqual([]);
  await context.close();
}

describe("the console finished, in Chromium", () => {
  for (const lang of ["en", "fr"] as const) {
    for (const width of [1280, 375] as const) {
      test(`${lang} at ${width} px`, () => withServerOutput(server, () => withOwnBrowser((browser) => journey(browser, lang, width))), 90_000);
    }
  }
});
