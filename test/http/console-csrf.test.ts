/**
 * The console's protections: every change needs the session's CSRF token and this origin; every
 * console response carries the security headers; the console's script is its own, same-origin.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { consoleRequest, pressSignIn, signIn, signInPath, type ConsoleSession } from "../support/console.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
let session: ConsoleSession;
let leadId: string;

beforeAll(async () => {
  server = await startTestServer();
  session = await signIn(server, "acme");
  const key = await server.createKey({ workspace: "acme" });
  const created = await server.request("/api/v1/leads", {
    key,
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name: "Ana Roy", email: "ana@example.ca", phone: "416 555 0199", insuranceType: "Auto" }),
  });
  leadId = ((await created.json()) as { data: { id: string } }).data.id;
}, 30_000);
afterAll(() => server.close());

const keyCount = async () => ((await (await consoleRequest(server, session, "/console/api/keys")).json()) as { data: { data: unknown[] } }).data.data.length;
const newKey = { name: "blog", scopes: ["brokers:read"] };

describe("CSRF: a change needs the session's token and this origin", () => {
  const refusals: [string, Record<string, string | undefined>][] = [
    ["no token", { "X-CSRF-Token": undefined }],
    ["a wrong token", { "X-CSRF-Token": "x".repeat(43) }],
    ["another origin", { Origin: "https://evil.example" }],
    ["no Origin", { Origin: undefined }],
    ["Origin null", { Origin: "null" }],
  ];
  for (const [what, override] of refusals) {
    test(`creating a key with ${what} is refused (403) and creates nothing`, async () => {
      const before = await keyCount();
      const merged: Record<string, string | undefined> = {
        Cookie: session.cookie,
        Origin: server.url,
        "X-CSRF-Token": session.csrfToken,
        "Content-Type": "application/json",
        ...override,
      };
      const headers = Object.fromEntries(Object.entries(merged).filter((e): e is [string, string] => e[1] !== undefined));
      const response = await server.request("/console/api/keys", { method: "POST", headers, body: JSON.stringify(newKey) });
      expect(response.status).toBe(403);
      expect(((await response.json()) as { error: string }).error).toContain("Refused");
      expect(await keyCount()).toBe(before);
    });
  }

  test("another session's token does not fit this session", async () => {
    const other = await signIn(server, "acme");
    const response = await consoleRequest(server, { ...session, csrfToken: other.csrfToken }, "/console/api/keys", { method: "POST", body: newKey });
    expect(response.status).toBe(403);
  });

  test("a lead's status change without the token is refused and its history is unchanged", async () => {
    const response = await consoleRequest(server, { ...session, csrfToken: "nope" }, `/console/api/leads/${leadId}`, {
      method: "PATCH",
      body: { status: "contacted" },
    });
    expect(response.status).toBe(403);
    const lead = (await (await consoleRequest(server, session, `/console/api/leads/${leadId}`)).json()) as { data: { status: string; history: unknown[] } };
    expect(lead.data.status).toBe("new");
    expect(lead.data.history).toHaveLength(1);
  });

  test("sign-out without the token is refused: the session goes on", async () => {
    const response = await consoleRequest(server, { ...session, csrfToken: "nope" }, "/console/api/sign-out", { method: "POST" });
    expect(response.status).toBe(403);
    expect((await consoleRequest(server, session, "/console/api/session")).status).toBe(200);
  });

  test("with the token and the origin, the change goes through", async () => {
    const response = await consoleRequest(server, session, "/console/api/keys", { method: "POST", body: newKey });
    expect(response.status).toBe(201);
  });
});

describe("security headers on every console response", () => {
  const expectHeaders = async (response: Response, index = 0) => {
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp, `response ${index} (${response.status}): ${response.status >= 500 ? await response.clone().text() : ""}`).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'none'");
    // The sign-in button's page sends our origin with its form, never its URL (it holds the token).
    expect(response.headers.get("referrer-policy")).toBe(response.status === 200 && response.url.includes("/console/sign-in?token=") ? "strict-origin" : "no-referrer");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  };

  test("pages, the API, errors, sign-in and the script", async () => {
    const responses = [
      await server.request("/console"),
      await server.request("/console/keys", { headers: { Cookie: session.cookie } }),
      await consoleRequest(server, session, "/console/api/keys"),
      await consoleRequest(server, session, "/console/api/nothing-here"),
      await server.request("/console/api/keys"),
      await server.request(await signInPath(server, "acme"), { redirect: "manual" }),
      await pressSignIn(server, await signInPath(server, "acme")),
      await server.request("/console/sign-in?token=bad", { redirect: "manual" }),
      await server.request("/console/console.js"),
      await consoleRequest(server, session, "/console/api/leads.csv"),
    ];
    for (const [i, response] of responses.entries()) await expectHeaders(response, i);
  });

  test("the console's script is JavaScript for this origin only, separate from the widget", async () => {
    const script = await server.request("/console/console.js");
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(script.headers.get("access-control-allow-origin")).toBeNull();
    expect(script.headers.get("cross-origin-resource-policy")).toBe("same-origin");
    const code = await script.text();
    expect(code).toContain("bd-console");
    const widget = await (await server.request("/widget.js")).text();
    expect(widget).not.toContain("bd-console");
    expect(code).not.toBe(widget);
  });

  test("pages other than GET are 405; unknown console API paths are 404", async () => {
    expect((await server.request("/console/keys", { method: "POST", headers: { Cookie: session.cookie } })).status).toBe(405);
    expect((await consoleRequest(server, session, "/console/api/nothing-here")).status).toBe(404);
    expect((await consoleRequest(server, session, "/console/api/keys", { method: "DELETE" })).status).toBe(405);
  });
});
