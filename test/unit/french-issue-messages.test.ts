import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { frenchMessage } from "../../src/adapters/frenchIssues.ts";
import { appRouter } from "../../src/router/appRouter.ts";
import { conflictingMessages, declaredMessages } from "../../src/schemas/frenchMessages.ts";
import { consoleRequest, signIn } from "../support/console.ts";
import { bareFieldMessages } from "../support/fieldMessageSites.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

/**
 * Field messages (`issues[].message`) in French when the request asks for it, on every surface
 * that words `error` in French (REST, embed, console, /trpc): the French of each is declared
 * beside its English (said) or carried by the issue (params.fr), and `path` and `code` never
 * change. English answers stay as they were.
 */

const ROOT = join(import.meta.dir, "../..");

/**
 * Files whose messages are not made there, with why. Their problems then read zod's generic
 * French (never English) until the engine they come from words them in French too.
 */
const PASSED_ON = new Map([
  ["src/router/quotes/invalidInput.ts", "passes each problem's `fr` on (spread into params)"],
  ["src/router/directory/directoryBrokers.ts", "the directory store's refusals (a slug or externalId another broker holds), shared with the CLI import"],
  ["src/router/directory/directoryImportFile.ts", "the import file reader's refusals (ImportFileError), shared with the CLI import"],
]);
void appRouter; // every procedure's schemas loaded, so every declared message is registered

describe("the source declares a French for every field message", () => {
  test("no `error:` option, requiredOr(…), addIssue message or invalidInput problem in src/schemas and src/router is bare English", () => {
    const bare = bareFieldMessages(ROOT, ["src/schemas", "src/router"])
      .filter((b) => !PASSED_ON.has(b.file))
      .map((b) => `${b.file}:${b.line} ${b.where} ${b.text}`);
    expect(bare).toEqual([]);
  });

  test("every declared message has a French that is not its English", () => {
    const messages = [...declaredMessages()];
    expect(messages.length).toBeGreaterThan(100);
    const same = messages.filter(([en, fr]) => fr.trim() === "" || fr === en).map(([en]) => en);
    expect(same).toEqual([]);
    // One English, one French: the same words are translated the same way everywhere.
    expect(conflictingMessages()).toEqual([]);
    // Typographic apostrophes, as frenchErrors.ts writes them.
    expect(messages.filter(([, fr]) => /\b[a-zA-Z]'[a-zA-Zéèêàâî]/.test(fr)).map(([, fr]) => fr)).toEqual([]);
  });

  test("a message ending with the refused value keeps the value; an issue's own French comes first; zod's French is the last resort", () => {
    expect(frenchMessage({ code: "too_big", message: "must be a whole number from 1 to 100 (got 1000)" })).toBe("doit être un nombre entier de 1 à 100 (reçu : 1000)");
    expect(frenchMessage({ code: "custom", message: "anything", params: { fr: "n’importe quoi" } })).toBe("n’importe quoi");
    const fallback = frenchMessage({ code: "too_big", message: "Too big: expected string to have <=3 characters", origin: "string", maximum: 3, inclusive: true } as never);
    expect(fallback).toStartWith("Trop grand");
  });
});

type Issue = { path: string; message: string };
type ErrorBody = { error: string; code: string; issues?: Issue[] };

let server: TestServer;
let key: string;
let hooks: string;
let embed: string;
beforeAll(async () => {
  server = await startTestServer();
  key = await server.createKey({ workspace: "francais", scopes: ["brokers:read", "quotes:write", "leads:write"], rateLimitPerMinute: 10_000 });
  embed = await server.createKey({ workspace: "francais", origins: ["https://partenaire.example"], scopes: ["quotes:write"], rateLimitPerMinute: 10_000 });
  hooks = await server.createKey({ workspace: "francais", scopes: ["webhooks:manage"], rateLimitPerMinute: 10_000 });
});
afterAll(() => server.close());

async function both(path: string, init: RequestInit & { key?: string } = {}): Promise<{ en: ErrorBody; fr: ErrorBody }> {
  const ask = async (language: string | undefined) => {
    const headers = { ...(init.headers as Record<string, string> | undefined), ...(language ? { "Accept-Language": language } : {}) };
    const res = await server.request(path, { ...init, headers });
    expect(res.status).toBe(422);
    return (await res.json()) as ErrorBody;
  };
  const en = await ask(undefined);
  const fr = await ask("fr-CA,fr;q=0.9,en;q=0.5");
  // The same issues at the same paths in the same order, the same code; only the words change.
  expect(fr.code).toBe(en.code);
  expect(fr.issues!.map((i) => i.path)).toEqual(en.issues!.map((i) => i.path));
  for (const [index, issue] of fr.issues!.entries()) expect(issue.message, issue.path).not.toBe(en.issues![index]!.message);
  for (const issue of fr.issues!) expect(Object.keys(issue)).toEqual(["path", "message"]);
  return { en, fr };
}

const json = (body: unknown, key: string): RequestInit & { key: string } => ({
  key,
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

describe("real requests in French", () => {
  test("a bad search query: limit out of range, an unknown province", async () => {
    const { en, fr } = await both("/api/v1/brokers?limit=1000&province=XX", { key });
    expect(en.issues).toEqual([
      { path: "province", message: expect.stringMatching(/^"XX" is not a Canadian province or territory\. Use a two-letter code/) },
      { path: "limit", message: "must be a whole number from 1 to 100 (got 1000)" },
    ]);
    expect(fr.issues).toEqual([
      { path: "province", message: expect.stringMatching(/^« XX » n’est pas une province ni un territoire du Canada\. Utilisez un code de deux lettres/) },
      { path: "limit", message: "doit être un nombre entier de 1 à 100 (reçu : 1000)" },
    ]);
    expect(fr.error).toStartWith("Certains champs sont invalides : province, limit.");
  });

  test("a bad lead: an e-mail, a phone, a field nobody knows", async () => {
    const lead = { name: "Marie Tremblay", email: "pas-un-courriel", phone: "123", insuranceType: "Auto", couleur: "bleu" };
    const { en, fr } = await both("/api/v1/leads", json(lead, key));
    expect(Object.fromEntries(en.issues!.map((i) => [i.path, i.message]))).toEqual({
      couleur: "is not a known field",
      email: "must be a valid email address such as name@example.com",
      phone: "must have 10 digits (area code and number), optionally preceded by 1 or +1, e.g. (416) 555-0199 or +1 416 555 0199",
    });
    const french = Object.fromEntries(fr.issues!.map((i) => [i.path, i.message]));
    expect(french).toEqual({
      couleur: "n’est pas un champ connu",
      email: "doit être une adresse courriel valide comme name@example.com",
      phone: "doit avoir 10 chiffres (indicatif régional et numéro), précédés ou non de 1 ou +1, p. ex. (416) 555-0199 ou +1 416 555 0199",
    });
  });

  test("a bad quote: the driver's age out of range", async () => {
    const quote = {
      insuranceType: "Auto",
      province: "ON",
      postalCode: "M5V 3L9",
      details: { vehicleYear: 2020, vehicleMake: "Toyota", vehicleModel: "RAV4", driverAge: 12, cleanRecord: true },
    };
    const { en, fr } = await both("/api/v1/embed/quotes", { ...json(quote, embed), headers: { "Content-Type": "application/json", Origin: "https://partenaire.example" } });
    expect(en.issues).toEqual([{ path: "details.driverAge", message: "must be at least 16 (driver's age in years)" }]);
    expect(fr.issues).toEqual([{ path: "details.driverAge", message: "doit être d’au moins 16 (âge du conducteur, en années)" }]);
  });

  test("a webhook to a private address", async () => {
    const { en, fr } = await both("/api/v1/webhooks", json({ url: "https://10.0.0.5/hook", events: ["lead.created"] }, hooks));
    expect(en.issues).toEqual([{ path: "url", message: "must not point at a private network address" }]);
    expect(fr.issues).toEqual([{ path: "url", message: "ne doit pas viser une adresse de réseau privé" }]);
  });

  test("the console's Webhooks page: the url's refusal beside the field, in French", async () => {
    const session = await signIn(server, "francais-console");
    const register = async (language?: string) => {
      const res = await consoleRequest(server, session, "/console/api/webhooks", {
        method: "POST",
        body: { url: "https://169.254.169.254/latest", events: ["lead.created"], bruit: 1 },
        headers: language ? { "Accept-Language": language } : {},
      });
      expect(res.status).toBe(422);
      return (await res.json()) as ErrorBody;
    };
    const en = await register();
    const fr = await register("fr");
    expect(en.issues).toEqual([{ path: "bruit", message: "is not a known field" }]);
    expect(fr.issues).toEqual([{ path: "bruit", message: "n’est pas un champ connu" }]);
    expect(fr.code).toBe(en.code);
    const { issues } = (await (await consoleRequest(server, session, "/console/api/webhooks", {
      method: "POST",
      body: { url: "https://169.254.169.254/latest", events: ["lead.created"] },
      headers: { "Accept-Language": "fr" },
    })).json()) as ErrorBody;
    expect(issues).toEqual([{ path: "url", message: "ne doit pas viser une adresse de métadonnées infonuagiques" }]);
  });

  test("/trpc in French: the message and each issue, the same paths and codes", async () => {
    const call = async (language?: string) => {
      const input = encodeURIComponent(JSON.stringify({ json: { limit: 1000, province: "XX" } }));
      const res = await fetch(`${server.url}/trpc/brokers.search?input=${input}`, {
        headers: { Authorization: `Bearer ${key}`, ...(language ? { "Accept-Language": language } : {}) },
      });
      expect(res.status).toBe(400);
      return ((await res.json()) as { error: { json: { message: string; data: { errorCode: string; code: string; issues: Issue[] } } } }).error.json;
    };
    const en = await call();
    const fr = await call("fr");
    expect(en.data.issues).toEqual([
      { path: "province", message: expect.stringMatching(/^"XX" is not a Canadian province or territory\./) },
      { path: "limit", message: "must be a whole number from 1 to 100 (got 1000)" },
    ]);
    expect(en.message).toStartWith('province: "XX" is not a Canadian province or territory.');
    expect(en.message).toEndWith("; limit: must be a whole number from 1 to 100 (got 1000)");
    expect(fr.data.issues.map((i) => i.path)).toEqual(["province", "limit"]);
    expect(fr.data.issues[0]!.message).toStartWith("« XX » n’est pas une province");
    expect(fr.data.issues[1]!.message).toBe("doit être un nombre entier de 1 à 100 (reçu : 1000)");
    expect(fr.message).toStartWith("Certains champs sont invalides : province, limit.");
    expect(fr.data.errorCode).toBe(en.data.errorCode);
    expect(fr.data.code).toBe(en.data.code);
  });
});
