/**
 * Issue 29: a server key (no origins list) pasted into a page's data-key must not work from
 * any origin — anyone reading the page's source would get a key that reads the workspace's
 * leads. A request with an Origin header and such a key is refused with 403
 * server_key_in_browser on REST, embed and /trpc, except from this server's own origin
 * (/demo and /console are served from it). Servers send no Origin and are not affected.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
let serverKey: string;
let embedKey: string;
const EVIL = "https://evil.example";
const PARTNER = "https://partner.example";

beforeAll(async () => {
  server = await startTestServer();
  serverKey = await server.createKey({ rateLimitPerMinute: 10_000 });
  embedKey = await server.createKey({ origins: [PARTNER], rateLimitPerMinute: 10_000 });
});
afterAll(() => server.close());

const trpcPath = (path: string, input: unknown) => `/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`;

/** One read per surface, each a GET the key's scopes allow. */
const SURFACES = [
  ["REST", "/api/v1/brokers?limit=1"],
  ["embed", "/api/v1/embed/brokers?limit=1"],
  ["tRPC", trpcPath("brokers.search", { limit: 1 })],
] as const;

async function refusal(res: Response): Promise<{ code: string; message: string }> {
  const body = (await res.json()) as { code?: string; error?: unknown };
  // REST and embed answer {error, code}; tRPC answers {error: {message, data: {errorCode}}}.
  if (typeof body.error === "string") return { code: String(body.code), message: body.error };
  const shaped = body.error as { json?: { message: string; data: { errorCode: string } }; message?: string; data?: { errorCode: string } };
  const inner = shaped.json ?? shaped;
  return { code: String(inner.data?.errorCode), message: String(inner.message) };
}

describe("a server key sent from a web page", () => {
  for (const [surface, path] of SURFACES) {
    test(`${surface}: 403 server_key_in_browser that says to make an embed key with --origins`, async () => {
      const res = await server.request(path, { key: serverKey, headers: { Origin: EVIL } });
      expect(res.status).toBe(403);
      const { code, message } = await refusal(res);
      expect(code).toBe("server_key_in_browser");
      expect(message).toContain("server key");
      expect(message).toContain("--origins");
    });

    test(`${surface}: the same key without an Origin (a server) is served`, async () => {
      const res = await server.request(path, { key: serverKey });
      expect(res.status).toBe(200);
    });

    test(`${surface}: from this server's own origin (/demo, /console) it is served`, async () => {
      const res = await server.request(path, { key: serverKey, headers: { Origin: new URL(server.url).origin } });
      expect(res.status).toBe(200);
    });
  }

  test("the refusal is in French when asked", async () => {
    const res = await server.request("/api/v1/embed/brokers?limit=1", { key: serverKey, headers: { Origin: EVIL, "Accept-Language": "fr" } });
    expect(res.status).toBe(403);
    const { code, message } = await refusal(res);
    expect(code).toBe("server_key_in_browser");
    expect(message).toContain("clé de serveur");
    expect(message).toContain("--origins");
  });

  test("an Origin of null (a sandboxed frame, a file) is a page too", async () => {
    const res = await server.request("/api/v1/brokers?limit=1", { key: serverKey, headers: { Origin: "null" } });
    expect(res.status).toBe(403);
  });

  test("an embed key from its own origin is still served on the embed API", async () => {
    const res = await server.request("/api/v1/embed/brokers?limit=1", { key: embedKey, headers: { Origin: PARTNER } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe(PARTNER);
  });
});
