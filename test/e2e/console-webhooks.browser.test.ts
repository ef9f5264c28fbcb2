/**
 * The console's Webhooks page (issue 28) in headless Chromium against the real server, in
 * English and French, at 1280 px and at 375 px: register an endpoint (its whsec_ secret shown
 * once), "Send test event" received by a receiver in this process with valid Standard Webhooks
 * headers (checked with the standardwebhooks library, as a partner would), the deliveries list
 * with status, attempts, response code and latency; a failing receiver (500) then "Resend" once
 * it recovers; a rolled secret signing; an endpoint disabled by a 410 showing why; a private
 * address refused with the server's 422 message beside the URL field. No horizontal overflow at
 * 375 px. The harness is consoleHarness.ts: `serve` as a child process (with
 * --webhooks-allow-http-loopback, so the loopback receiver may be registered), keys and sign-in
 * links from the CLI. Screenshots go to test/e2e/screenshots/console-webhooks-*.png.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { TEST_EVENT_TYPE } from "../../src/domain/webhooks/webhookEvents.ts";
import { consoleTranslator, type Lang } from "../../widget/console/i18n.ts";
import { tempDir } from "../cli/cliHarness.ts";
import { eventually } from "../support/eventually.ts";
import { WebhookReceiver } from "../support/webhookReceiver.ts";
import { consolePage, expectNoOverflow, startConsoleServer, withOwnBrowser, withServerOutput, type ConsoleServer } from "./consoleHarness.ts";

const OUTPUT = join(import.meta.dir, "screenshots");
const folder = tempDir();
let served: ConsoleServer;
/** A second server, without --webhooks-allow-http-loopback, over its own database. */
let strict: ConsoleServer;

/** The partner's receiver: loopback, in this process; records what it gets and answers as told (200 unless told). */
const receiver = new WebhookReceiver();
const hookUrl = (path: string) => receiver.url(path);
const answering = (status: number) => () => new Response(status < 300 ? "ok" : "nope", { status });

beforeAll(async () => {
  mkdirSync(OUTPUT, { recursive: true });
  // A retry waits an hour: a failed delivery is sent again only by "Resend", never by the clock.
  served = await startConsoleServer(folder.path("directory.db"), { flags: ["--webhooks-allow-http-loopback"], env: { WEBHOOKS_RETRY_BASE_SECONDS: "3600" } });
  strict = await startConsoleServer(folder.path("strict.db"));
}, 60_000);

afterAll(async () => {
  await Promise.all([served?.stop(), strict?.stop()]);
  receiver.stop();
  folder.remove();
}, 30_000);

/** A server key of the workspace that manages webhooks (which also makes the workspace), from the operator's CLI. */
async function webhooksKey(workspace: string, on = served): Promise<string> {
  return (await on.cliKey(["--workspace", workspace, "--name", "crm", "--scopes", "webhooks:manage"])).key;
}

/** The API's own refusal of a registration, in the language asked for: what the console must show. */
async function refusalOf(key: string, url: string, lang: Lang, on = served): Promise<string> {
  const answer = await fetch(`${on.url}/api/v1/webhooks`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Accept-Language": lang },
    body: JSON.stringify({ url, events: ["lead.created"] }),
  });
  expect(answer.status).toBe(422);
  const body = (await answer.json()) as { issues: { path: string; message: string }[] };
  return body.issues.find((issue) => issue.path === "url")!.message;
}

/** What the receiver got on a path, from its `from`th request on. */
const arrivals = (path: string, from = 0) => receiver.at(path).slice(from);

async function journey(browser: Browser, lang: Lang, width: 1280 | 375): Promise<void> {
  const t = consoleTranslator(lang);
  const workspace = `hooks-${lang}-${width}`;
  const path = `/${workspace}/crm`;
  const gonePath = `/${workspace}/gone`;
  receiver.answer(gonePath, answering(410));
  const shot = async (page: Page, name: string) => {
    if (width === 375) {
      await expectNoOverflow(page, width, name);
      // Nor a table scrolling inside its own box: at phone widths the tables stack.
      const hidden = await page.locator("bd-webhooks-page .table-wrap").evaluateAll((wraps) => wraps.map((w) => w.scrollWidth - w.clientWidth));
      expect({ name, hidden: hidden.filter((px) => px > 0) }).toEqual({ name, hidden: [] });
    }
    await page.screenshot({ path: join(OUTPUT, `console-webhooks-${lang}-${width}-${name}.png`), fullPage: true });
  };
  const context = await browser.newContext({ locale: lang === "fr" ? "fr-CA" : "en-CA", viewport: { width, height: 900 } });
  const { page, problems } = await consolePage(context);
  const key = await webhooksKey(workspace);
  await page.goto(await served.link(workspace));
  await page.getByRole("button", { name: lang === "fr" ? "Se connecter" : "Sign in" }).click();
  await page.getByRole("heading", { level: 1, name: t("keys.heading") }).waitFor();
  await page.getByRole("link", { name: t("nav.webhooks") }).click();
  const view = page.locator("bd-webhooks-page");
  await view.getByRole("heading", { level: 1, name: t("webhooks.heading") }).waitFor();
  await view.getByText(t("webhooks.empty")).waitFor();
  const form = view.getByRole("group", { name: t("webhooks.register") });
  const urlField = form.getByLabel(t("webhooks.url"));

  // A private address is refused at registration, with the server's message beside the URL field.
  await urlField.fill("https://10.0.0.5/hooks");
  await form.getByRole("button", { name: t("webhooks.register") }).click();
  const refusal = view.locator("#wh-url-error");
  await refusal.waitFor();
  expect(await urlField.getAttribute("aria-invalid")).toBe("true");
  expect(await refusal.textContent()).toBe(await refusalOf(key, "https://10.0.0.5/hooks", lang));
  await shot(page, "refused");

  // Register: the secret is shown once, in the form the standardwebhooks library reads.
  await urlField.fill(hookUrl(path));
  await form.getByLabel(t("webhooks.description")).fill("CRM <b>prod</b>");
  await form.getByRole("button", { name: t("webhooks.register") }).click();
  const notice = view.locator(".notice[role=status]", { hasText: hookUrl(path) });
  const secret = (await notice.locator("code").textContent())!;
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
  expect(await refusal.count()).toBe(0);
  const endpoint = view.locator("tr[data-endpoint-id]", { hasText: hookUrl(path) });
  // The description is the workspace's text, shown as text.
  await endpoint.getByText("CRM <b>prod</b>").waitFor();
  await shot(page, "registered");
  await notice.getByRole("button", { name: t("close") }).click();

  // Send test event: the receiver gets it, signed per Standard Webhooks.
  const before = arrivals(path).length;
  await endpoint.getByRole("button", { name: t("webhooks.test") }).click();
  expect(await eventually(() => arrivals(path, before).length === 1, 5_000)).toBe(true);
  const first = arrivals(path, before)[0]!;
  const event = new Webhook(secret).verify(first.body, first.headers) as { id: string; type: string; createdAt: string; data: unknown };
  expect(event.type).toBe(TEST_EVENT_TYPE);
  expect(first.headers["webhook-id"]).toBe(event.id);
  expect(() => new Webhook(`whsec_${Buffer.from("not the secret").toString("base64")}`).verify(first.body, first.headers)).toThrow();

  // Its delivery, shown and looked at again by the page itself: delivered, one attempt, 200, a latency.
  const delivery = (eventId: string) => view.locator("tr[data-delivery-id]", { hasText: eventId });
  const showDeliveries = () => endpoint.getByRole("button", { name: t("webhooks.deliveries") }).click();
  await view.getByRole("heading", { level: 2, name: t("webhooks.deliveriesOf", { url: hookUrl(path) }) }).waitFor();
  const delivered = delivery(event.id);
  await delivered.getByText(t("webhooks.delivery.delivered")).waitFor();
  const cells = await delivered.locator("td").allTextContents();
  expect(cells[1]).toBe("1");
  expect(cells[2]).toBe("200");
  expect(cells[3]).toMatch(/^\d+ ms$/);
  await shot(page, "delivered");

  // A failing receiver: the attempt is logged with its 500, and waits for its retry.
  receiver.answer(path, answering(500));
  const beforeFailure = arrivals(path).length;
  await endpoint.getByRole("button", { name: t("webhooks.test") }).click();
  expect(await eventually(() => arrivals(path, beforeFailure).length === 1, 5_000)).toBe(true);
  const failedId = arrivals(path, beforeFailure)[0]!.headers["webhook-id"]!;
  const failing = delivery(failedId);
  expect(await eventually(async () => {
    await showDeliveries();
    return (await failing.locator("td").nth(2).textContent()) === "500";
  }, 5_000)).toBe(true);
  await failing.getByText(t("webhooks.delivery.pending")).waitFor();
  await shot(page, "failing");

  // Recovered: Resend sends the same event (the same webhook-id) again, and it is delivered.
  receiver.answer(path, answering(200));
  const beforeResend = arrivals(path).length;
  await failing.first().getByRole("button", { name: t("webhooks.resend") }).click();
  expect(await eventually(() => arrivals(path, beforeResend).length === 1, 5_000)).toBe(true);
  const resent = arrivals(path, beforeResend)[0]!;
  expect(resent.headers["webhook-id"]).toBe(failedId);
  expect((new Webhook(secret).verify(resent.body, resent.headers) as { id: string }).id).toBe(failedId);
  expect(await eventually(async () => {
    await showDeliveries();
    return (await failing.count()) === 2 && (await failing.first().getByText(t("webhooks.delivery.delivered")).count()) === 1;
  }, 5_000)).toBe(true);

  // Roll the secret: a new one shown once; during the overlap both sign.
  await endpoint.getByRole("button", { name: t("webhooks.roll") }).click();
  const rolled = (await view.locator(".notice[role=status]", { hasText: hookUrl(path) }).locator("code").textContent())!;
  expect(rolled).toMatch(/^whsec_/);
  expect(rolled).not.toBe(secret);
  const beforeRoll = arrivals(path).length;
  await endpoint.getByRole("button", { name: t("webhooks.test") }).click();
  expect(await eventually(() => arrivals(path, beforeRoll).length === 1, 5_000)).toBe(true);
  const afterRoll = arrivals(path, beforeRoll)[0]!;
  expect(() => new Webhook(rolled).verify(afterRoll.body, afterRoll.headers)).not.toThrow();
  expect(() => new Webhook(secret).verify(afterRoll.body, afterRoll.headers)).not.toThrow();
  await shot(page, "rolled");
  await view.locator(".notice[role=status]").getByRole("button", { name: t("close") }).click();

  // An endpoint answering 410 is disabled, and the page says why.
  await urlField.fill(hookUrl(gonePath));
  await form.getByRole("button", { name: t("webhooks.register") }).click();
  const gone = view.locator("tr[data-endpoint-id]", { hasText: hookUrl(gonePath) });
  await gone.getByRole("button", { name: t("webhooks.test") }).click();
  expect(await eventually(() => arrivals(gonePath).length === 1, 5_000)).toBe(true);
  expect(await eventually(async () => {
    await gone.getByRole("button", { name: t("webhooks.deliveries") }).click();
    return (await gone.getByText(t("webhooks.status.disabled")).count()) === 1;
  }, 5_000)).toBe(true);
  expect(await gone.textContent()).toContain(t("webhooks.reason.gone"));
  await shot(page, "disabled");

  expect(problems).toEqual([]);
  await context.close();
}

/** On a server without the loopback allowance, a loopback URL is refused beside the field, with the API's message. */
async function loopbackRefused(browser: Browser, lang: Lang): Promise<void> {
  const t = consoleTranslator(lang);
  const workspace = `strict-${lang}`;
  const context = await browser.newContext({ locale: lang === "fr" ? "fr-CA" : "en-CA", viewport: { width: 375, height: 900 } });
  const { page, problems } = await consolePage(context);
  const key = await webhooksKey(workspace, strict);
  await page.goto(await strict.link(workspace));
  await page.getByRole("button", { name: lang === "fr" ? "Se connecter" : "Sign in" }).click();
  await page.getByRole("link", { name: t("nav.webhooks") }).click();
  const view = page.locator("bd-webhooks-page");
  const form = view.getByRole("group", { name: t("webhooks.register") });
  const urlField = form.getByLabel(t("webhooks.url"));
  for (const url of [hookUrl("/loopback"), "http://[::1]:8080/hooks", "https://[::ffff:127.0.0.1]/hooks"]) {
    await urlField.fill(url);
    await form.getByRole("button", { name: t("webhooks.register") }).click();
    const expected = await refusalOf(key, url, lang, strict);
    await view.locator("#wh-url-error", { hasText: expected }).waitFor();
    expect(await urlField.getAttribute("aria-invalid")).toBe("true");
  }
  await view.getByText(t("webhooks.empty")).waitFor();
  await expectNoOverflow(page, 375, "loopback refused");
  await page.screenshot({ path: join(OUTPUT, `console-webhooks-${lang}-375-loopback-refused.png`), fullPage: true });
  expect(receiver.at("/loopback")).toEqual([]);
  expect(problems).toEqual([]);
  await context.close();
}

describe("the console's Webhooks page, in Chromium", () => {
  for (const lang of ["en", "fr"] as const) {
    test(`${lang}: without the loopback allowance, a loopback URL is refused beside the field`, () => withServerOutput(strict, () => withOwnBrowser((browser) => loopbackRefused(browser, lang))), 60_000);
  }
  for (const lang of ["en", "fr"] as const) {
    for (const width of [1280, 375] as const) {
      test(`${lang} at ${width} px`, () => withServerOutput(served, () => withOwnBrowser((browser) => journey(browser, lang, width))), 90_000);
    }
  }
});
