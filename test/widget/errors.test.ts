import { useDom } from "./setup-dom.ts";
import { afterEach, describe, expect, test } from "bun:test";
import "../../widget/directory.ts";
import type { BrokerDirectory } from "../../widget/directory.ts";
import { ApiError, apiRequest, retryAfterSeconds } from "../../widget/api.ts";
import { json, mockFetch, mount, shadow, text, until } from "./helpers.ts";

useDom();

let restore = () => {};
afterEach(() => restore());

const mountDirectory = () => mount<BrokerDirectory>(`<broker-directory api-key="brk_bad" api-base="https://d.example"></broker-directory>`);

describe("problems the site owner must see", () => {
  test("401: a bad key is explained, with the server's words, and no retry button", async () => {
    restore = mockFetch(json(401, { error: "API key revoked" }, { "WWW-Authenticate": "Bearer" })).restore;
    const el = await mountDirectory();
    const notice = await until(() => shadow(el).querySelector("[part=problem]"));
    expect(notice.getAttribute("role")).toBe("alert");
    expect(text(el)).toContain("its key is missing, invalid, expired or revoked");
    expect(text(el)).toContain("check the data-key attribute");
    expect(text(el)).toContain("API key revoked");
    expect(notice.querySelector("button")).toBeNull();
    expect(shadow(el).querySelector("select")).toBeNull(); // no filters for a refused key
  });

  test("403: origin not allowed", async () => {
    restore = mockFetch(json(403, { error: "Origin https://partner.example is not allowed for this key" })).restore;
    const el = await mountDirectory();
    await until(() => shadow(el).querySelector("[part=problem]"));
    expect(text(el)).toContain("This website is not allowed to use this widget key");
    expect(text(el)).toContain("allowed origins");
    expect(text(el)).toContain("Origin https://partner.example is not allowed");
  });

  test("403 in French", async () => {
    restore = mockFetch(json(403, { error: "nope" })).restore;
    const el = await mount<BrokerDirectory>(`<broker-directory lang="fr" api-key="k" api-base="https://d.example"></broker-directory>`);
    await until(() => shadow(el).querySelector("[part=problem]"));
    expect(text(el)).toContain("Ce site n’est pas autorisé à utiliser cette clé");
  });

  test("500 and network failures offer a retry that works", async () => {
    const fetch = mockFetch(json(500, { error: "Internal error" }), json(200, { data: [], total: 0 }));
    restore = fetch.restore;
    const el = await mountDirectory();
    const button = await until(() => shadow(el).querySelector<HTMLButtonElement>("[part=problem] button"));
    expect(text(el)).toContain("Something went wrong on our side");
    button.click();
    await until(() => shadow(el).querySelector("[part=empty]"));
    expect(fetch.calls).toHaveLength(2);
  });

  test("network error", async () => {
    const original = globalThis.fetch;
    globalThis.fetch = Object.assign(async () => {
      throw new TypeError("Failed to fetch");
    }, { preconnect: () => {} }) as typeof fetch;
    restore = () => (globalThis.fetch = original);
    const el = await mountDirectory();
    await until(() => shadow(el).querySelector("[part=problem]"));
    expect(text(el)).toContain("Could not reach the broker directory");
  });
});

describe("429", () => {
  test("is retried once after Retry-After seconds", async () => {
    const fetch = mockFetch(json(429, { error: "Too many requests" }, { "Retry-After": "1" }), json(200, { data: [], total: 0 }));
    restore = fetch.restore;
    const started = Date.now();
    const answer = await apiRequest<{ total: number }>({ base: "https://d.example", key: "k" }, "/embed/brokers");
    expect(answer.total).toBe(0);
    expect(fetch.calls).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  test("a second 429 is shown, not retried again", async () => {
    const fetch = mockFetch(json(429, { error: "Too many requests" }, { "Retry-After": "0" }));
    restore = fetch.restore;
    const el = await mountDirectory();
    await until(() => shadow(el).querySelector("[part=problem]"));
    expect(fetch.calls).toHaveLength(2);
    expect(text(el)).toContain("Too many requests right now");
  });

  test("Retry-After parsing: seconds, HTTP date, missing", () => {
    expect(retryAfterSeconds("3")).toBe(3);
    expect(retryAfterSeconds(new Date(Date.UTC(2030, 0, 1, 0, 0, 10)).toUTCString(), Date.UTC(2030, 0, 1))).toBe(10);
    expect(retryAfterSeconds(null)).toBe(1);
  });
});

describe("apiRequest", () => {
  test("422 carries the issues; POST sends JSON with the bearer key", async () => {
    const fetch = mockFetch(json(422, { error: "Invalid quote", issues: [{ path: "details.driverAge", message: "is required" }] }));
    restore = fetch.restore;
    const failure = await apiRequest({ base: "https://d.example/", key: "brk_1" }, "/embed/quotes", { method: "POST", body: { a: 1 } }).then(() => undefined, (e: unknown) => e as ApiError);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure?.status).toBe(422);
    expect(failure?.issues).toEqual([{ path: "details.driverAge", message: "is required" }]);
    const call = fetch.calls[0]!;
    expect(call.url.href).toBe("https://d.example/api/v1/embed/quotes");
    expect(call.method).toBe("POST");
    expect(call.headers.get("Content-Type")).toBe("application/json");
    expect(call.body).toEqual({ a: 1 });
  });

  test("the error's code is kept; the widget's language goes out as Accept-Language, so a French page gets French errors", async () => {
    const fetch = mockFetch(json(429, { error: "Limite de requêtes atteinte.", code: "rate_limited" }, { "Retry-After": "999" }));
    restore = fetch.restore;
    const failure = await apiRequest({ base: "https://d.example", key: "k", language: "fr" }, "/embed/brokers").then(() => undefined, (e: unknown) => e as ApiError);
    expect(failure).toMatchObject({ status: 429, code: "rate_limited", message: "Limite de requêtes atteinte." });
    expect(fetch.calls[0]!.headers.get("Accept-Language")).toBe("fr");
  });

  test("a French widget asks in French and shows the server's French words", async () => {
    const fetch = mockFetch(json(401, { error: "Cette clé d’API a été révoquée. Créez-en une nouvelle.", code: "api_key_revoked" }));
    restore = fetch.restore;
    const el = await mount<BrokerDirectory>(`<broker-directory lang="fr" api-key="k" api-base="https://d.example"></broker-directory>`);
    await until(() => shadow(el).querySelector("[part=problem]"));
    expect(fetch.calls[0]!.headers.get("Accept-Language")).toBe("fr");
    expect(text(el)).toContain("Cette clé d’API a été révoquée");
  });

  test("a non-JSON error body still gives an ApiError with the status", async () => {
    restore = mockFetch(new Response("<html>bad gateway</html>", { status: 502 })).restore;
    const failure = await apiRequest({ base: "https://d.example", key: "k" }, "/embed/brokers").then(() => undefined, (e: unknown) => e as ApiError);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure?.status).toBe(502);
  });
});
