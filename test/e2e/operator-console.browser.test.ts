/**
 * The operator's console (issue 27 section 4) end to end, in headless Chromium against the real
 * server run as `serve`: the operator's workspace (given a directory:write key by the CLI) finds
 * a broker, edits it (an invalid field shows its own message), unpublishes it with a reason (it
 * leaves the public REST search) and publishes it back, hides a review (the broker's rating
 * moves) and restores it, checks db/examples/brokers.csv (its two bad rows) and imports it. Once
 * in English and once in French, each on a server of its own so each journey stands alone. A
 * partner workspace sees none of it, and its session gets 403 from /console/api/directory/*.
 * Screenshots go to test/e2e/screenshots/operator-*.png.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { consoleTranslator, type Lang } from "../../widget/console/i18n.ts";
import { REPO, tempDir } from "../cli/cliHarness.ts";
import { closeBrowser, launchChromium } from "./browser.ts";
import { consolePage, startConsoleServer, withServerOutput, type ConsoleServer } from "./consoleHarness.ts";
import { passesWithin } from "../support/eventually.ts";

const OUTPUT = join(import.meta.dir, "screenshots");
const EXAMPLE = join(REPO, "db/examples/brokers.csv");
const REVIEWS = join(REPO, "db/examples/reviews.ndjson");
const folder = tempDir();
let browser: Browser;
const servers: ConsoleServer[] = [];

/** A broker as the public search answers it (the fields this test reads). */
interface PublicBroker {
  id: string;
  slug: string;
  name: string;
  reviewCount: number;
}

/**
 * A server of the journey's own: `serve` in a child process over a fresh database with the demo
 * directory (consoleHarness.ts), an operator workspace holding a directory:write key, and a partner's search key.
 */
async function journeyServer(name: string) {
  const server = await startConsoleServer(folder.path(`${name}.db`));
  servers.push(server);
  // The operator's rule: a workspace edits the directory when the CLI gave it a live directory:write key.
  await server.cliKey(["--workspace", "operator", "--name", "directory editor", "--scopes", "directory:write"]);
  const searchKey = (await server.cliKey(["--workspace", "partner", "--name", "site"])).key;
  return {
    url: server.url,
    link: (workspace: string) => server.link(workspace),
    /** The public REST API, as a partner's site reads it. */
    publicGet: (path: string) => fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${searchKey}` } }),
  };
}
type JourneyServer = Awaited<ReturnType<typeof journeyServer>>;

beforeAll(async () => {
  mkdirSync(OUTPUT, { recursive: true });
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await closeBrowser(browser);
  await Promise.all(servers.map((server) => server.stop()));
  folder.remove();
}, 30_000);

async function signIn(page: Page, server: JourneyServer, workspace: string, lang: Lang): Promise<void> {
  await page.goto(await server.link(workspace));
  await page.getByRole("button", { name: lang === "fr" ? "Se connecter" : "Sign in" }).click();
  await page.waitForURL(`${server.url}/console/keys`);
}

async function journey(lang: Lang): Promise<void> {
  const context = await browser.newContext({ locale: lang === "fr" ? "fr-CA" : "en-CA", viewport: { width: 1280, height: 900 } });
  try {
    await steps(lang, context);
  } catch (error) {
    // The page as it was when a step failed, to see why.
    await context.pages()[0]?.screenshot({ path: join(OUTPUT, `operator-${lang}-failure.png`), fullPage: true });
    throw error;
  } finally {
    await context.close();
  }
}

async function steps(lang: Lang, context: BrowserContext): Promise<void> {
  const t = consoleTranslator(lang);
  const shot = (page: Page, name: string) => page.screenshot({ path: join(OUTPUT, `operator-${lang}-${name}.png`), fullPage: true });
  const server = await journeyServer(`operator-${lang}`);
  const { page, problems } = await consolePage(context);

  // A published demo broker with reviews, as the public search lists it.
  const listed = ((await (await server.publicGet("/api/v1/brokers?limit=50")).json()) as { data: PublicBroker[] }).data;
  const target = listed.find((b) => b.reviewCount >= 3)!;
  expect(target).toBeDefined();
  const inPublicSearch = async () => ((await (await server.publicGet(`/api/v1/brokers?limit=50&q=${encodeURIComponent(target.name)}`)).json()) as { data: PublicBroker[] }).data.some((b) => b.slug === target.slug);

  // Find it in the Directory.
  await signIn(page, server, "operator", lang);
  await page.getByRole("link", { name: t("nav.directory") }).click();
  await page.getByRole("heading", { level: 1, name: t("dir.heading") }).waitFor();
  await page.getByLabel(t("dir.search")).fill(target.name);
  await page.getByRole("button", { name: t("dir.apply") }).click();
  const brokerLink = page.getByRole("link", { name: target.name, exact: true });
  await brokerLink.waitFor();
  await shot(page, "directory");
  await brokerLink.click();
  await page.getByRole("heading", { level: 1, name: new RegExp(target.name) }).waitFor();

  // An invalid e-mail is refused by the server's own rule, in the console's language, shown beside the field, which gets focus.
  const email = page.getByLabel(t("field.email"), { exact: true });
  await email.fill("not-an-email");
  await page.getByRole("button", { name: t("save"), exact: true }).click();
  await page.locator("bd-broker-form #e-email").waitFor();
  expect(await page.locator("bd-broker-form #e-email").textContent()).toContain(lang === "fr" ? "doit être une adresse courriel" : "must be an e-mail address");
  expect(await email.getAttribute("aria-invalid")).toBe("true");
  expect(await page.evaluate(() => document.querySelector("bd-console")?.shadowRoot?.querySelector("bd-broker-page")?.shadowRoot?.querySelector("bd-broker-form")?.shadowRoot?.activeElement?.id)).toBe("b-email");
  await shot(page, "broker-invalid");

  // A valid edit: saved, on the public detail within a second, and on the history.
  const description = lang === "fr" ? "Courtage familial — modifié dans la console" : "Family brokerage — edited in the console";
  await email.fill("bonjour@example.ca");
  await page.getByLabel(t("field.description")).fill(description);
  await page.getByLabel(t("broker.reason")).fill("phone call with the owner");
  await page.getByRole("button", { name: t("save"), exact: true }).click();
  await page.getByRole("cell", { name: "phone call with the owner" }).waitFor();
  await passesWithin(async () => expect(((await (await server.publicGet(`/api/v1/brokers/${target.slug}`)).json()) as { data: { description: string } }).data.description).toBe(description));

  // Unpublish: the reason is required; then the broker leaves the public search and detail.
  await page.getByRole("button", { name: t("broker.unpublish") }).click();
  const unpublish = page.getByRole("dialog", { name: t("unpublish.title", { name: target.name }) });
  await unpublish.getByRole("button", { name: t("broker.unpublish") }).click();
  await unpublish.getByText(t("error.required")).waitFor();
  await unpublish.getByLabel(t("unpublish.reason")).fill("licence lapsed");
  await shot(page, "unpublish");
  await unpublish.getByRole("button", { name: t("broker.unpublish") }).click();
  await page.getByRole("heading", { level: 1, name: new RegExp(t("state.unpublished")) }).waitFor();
  await passesWithin(async () => expect(await inPublicSearch()).toBe(false));
  expect((await server.publicGet(`/api/v1/brokers/${target.slug}`)).status).toBe(404);
  await page.getByRole("cell", { name: "licence lapsed" }).waitFor();
  await shot(page, "broker-unpublished");

  // Publish it back.
  await page.getByRole("button", { name: t("broker.publish") }).click();
  const publish = page.getByRole("dialog", { name: t("publish.title", { name: target.name }) });
  await publish.getByRole("button", { name: t("broker.publish") }).click();
  await page.getByRole("heading", { level: 1, name: new RegExp(t("state.published")) }).waitFor();
  await passesWithin(async () => expect(await inPublicSearch()).toBe(true));

  // Its reviews: hiding one moves the broker's rating at once; restoring moves it back.
  const ratingText = (count: number) => t("rev.brokerRating", { name: target.name, rating: "", count }).split(" ★")[1]!;
  await page.getByRole("link", { name: t("broker.reviewsLink") }).click();
  await page.getByRole("heading", { level: 1, name: t("rev.heading") }).waitFor();
  const first = page.locator("bd-reviews-page article").first();
  await first.getByText(ratingText(target.reviewCount)).waitFor();
  await first.getByRole("button", { name: t("rev.hide") }).click();
  const hide = page.getByRole("dialog", { name: /./ }).filter({ hasText: t("hide.body") });
  await hide.getByLabel(t("reason.other")).check();
  await hide.getByRole("button", { name: t("rev.hide") }).click();
  await hide.getByText(t("error.required")).waitFor(); // "other" needs a note
  await hide.getByLabel(t("hide.note")).fill("posted twice");
  await hide.getByRole("button", { name: t("rev.hide") }).click();
  await first.getByText(ratingText(target.reviewCount - 1)).waitFor();
  await first.getByText(t("rev.hiddenWhy", { reason: `${t("reason.other")} — posted twice` })).waitFor();
  await passesWithin(async () => expect(((await (await server.publicGet(`/api/v1/brokers/${target.slug}`)).json()) as { data: PublicBroker }).data.reviewCount).toBe(target.reviewCount - 1));
  await shot(page, "reviews");
  await first.getByRole("button", { name: t("rev.restore") }).click();
  await first.getByText(ratingText(target.reviewCount)).waitFor();

  // Import: the example file is checked first (its two bad rows, with line, field and message), then imported.
  await page.getByRole("link", { name: t("nav.import") }).click();
  await page.getByRole("heading", { level: 1, name: t("imp.heading") }).waitFor();
  await page.getByLabel(t("imp.file")).setInputFiles(EXAMPLE);
  await page.getByRole("button", { name: t("imp.check") }).click();
  const checked = page.getByRole("region", { name: t("imp.report", { name: "brokers.csv" }) });
  await checked.waitFor();
  const count = (name: string) => page.locator(`bd-import-page td[data-count=${name}]`).textContent();
  expect([await count("created"), await count("failed")]).toEqual(["18", "2"]);
  const errors = page.getByRole("table", { name: t("imp.errorsCaption") });
  await errors.getByRole("row", { name: /24 postalCode .*is in Ontario, the row says QC/ }).waitFor();
  await errors.getByRole("row", { name: /26 teamSize .*10-50/ }).waitFor();
  expect(((await (await server.publicGet("/api/v1/brokers?q=Maple%20Leaf%20Insurance%20Brokers")).json()) as { data: PublicBroker[] }).data.some((b) => b.slug === "maple-leaf-insurance-brokers")).toBe(false);
  await shot(page, "import-checked");
  await page.getByRole("button", { name: t("imp.confirm", { n: 18 }) }).click();
  await page.getByRole("region", { name: t("imp.done", { name: "brokers.csv" }) }).waitFor();
  expect([await count("created"), await count("failed")]).toEqual(["18", "2"]);
  await passesWithin(async () => expect((await server.publicGet("/api/v1/brokers/maple-leaf-insurance-brokers")).status).toBe(200));
  await shot(page, "import-done");

  // Reviews in NDJSON, for the brokers just imported.
  await page.getByRole("button", { name: t("imp.again") }).click();
  await page.getByLabel(t("imp.reviews")).check();
  await page.getByLabel(t("imp.file")).setInputFiles(REVIEWS);
  await page.getByRole("button", { name: t("imp.check") }).click();
  await page.getByRole("region", { name: t("imp.report", { name: "reviews.ndjson" }) }).waitFor();
  const reviewLines = readFileSync(REVIEWS, "utf8").trim().split("\n").length;
  expect(Number(await count("created")) + Number(await count("failed"))).toBe(reviewLines);

  expect(problems).toEqual([]);
}

describe("operator console in Chromium", () => {
  test("the operator's journey in English", () => journey("en"), 120_000);
  test("the operator's journey in French", () => journey("fr"), 120_000);

  test("usable at 375 px: the operator's pages fit the width", async () => {
    const server = await journeyServer("narrow");
    const context = await browser.newContext({ locale: "en-CA", viewport: { width: 375, height: 800 } });
    const { page, problems } = await consolePage(context);
    await signIn(page, server, "operator", "en");
    for (const [path, heading, name] of [["/console/directory", "Directory", "directory"], ["/console/reviews", "Reviews", "reviews"], ["/console/import", "Import", "import"]] as const) {
      await page.goto(`${server.url}${path}`);
      await page.getByRole("heading", { level: 1, name: heading }).waitFor();
      // Its content too (the directory's table, the queue's reviews), not only the heading.
      await page.waitForTimeout(300);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect({ path, overflow }).toEqual({ path, overflow: 0 });
      await page.screenshot({ path: join(OUTPUT, `operator-375-${name}.png`), fullPage: true });
    }
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  test("a partner workspace sees no operator page and its session gets 403 from /console/api/directory/*", async () => {
    const server = await journeyServer("partner");
    const context = await browser.newContext({ locale: "en-CA" });
    const { page } = await consolePage(context);
    await signIn(page, server, "partner", "en");
    await page.getByRole("heading", { level: 1, name: "API keys" }).waitFor();
    const nav = page.getByRole("navigation", { name: "Console sections" });
    expect(await nav.getByRole("link").allTextContents()).toEqual(["API keys", "Leads", "Usage", "Webhooks"]);
    // Typed in by hand, an operator page says it is not theirs and asks nothing of the API.
    await page.goto(`${server.url}/console/directory`);
    await page.getByText("This page is for the directory's operator.").waitFor();
    // And the API itself refuses the session, reads and changes alike, as the page's own script would send them.
    const statuses = await page.evaluate(async () => {
      const { csrfToken } = ((await (await fetch("/console/api/session")).json()) as { data: { csrfToken: string } }).data;
      const send = (method: string, path: string, body?: unknown) =>
        fetch(path, { method, headers: { "X-CSRF-Token": csrfToken, ...(body === undefined ? {} : { "Content-Type": "application/json" }) }, body: body === undefined ? undefined : JSON.stringify(body) }).then((r) => r.status);
      return [
        await send("GET", "/console/api/directory/brokers"),
        await send("GET", "/console/api/directory/reviews"),
        await send("GET", "/console/api/directory/brokers/1"),
        await send("PATCH", "/console/api/directory/brokers/1", { name: "Taken over" }),
        await send("POST", "/console/api/directory/brokers/1/unpublish", { reason: "x" }),
        await send("POST", "/console/api/directory/reviews/1/hide", { reason: "spam" }),
        await send("POST", "/console/api/directory/import-file", { kind: "brokers", text: "name\nx\n", dryRun: true }),
      ];
    });
    expect(statuses).toEqual([403, 403, 403, 403, 403, 403, 403]);
    await page.screenshot({ path: join(OUTPUT, "operator-partner-refused.png"), fullPage: true });
    await context.close();
  }, 60_000);
});
