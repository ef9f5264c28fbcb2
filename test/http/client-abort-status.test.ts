/**
 * An upload its client abandons is the client's doing: counted and logged as 499 (client
 * closed request) at info level on every surface, never a 500 with "procedure failed" at
 * error level (as a keyed REST upload was: Bun's AbortError went through as our fault).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createLogger } from "../../src/log.ts";
import { BODY_SURFACES, EMBED_ORIGIN, postHead } from "../support/bodySurfaces.ts";
import { eventually } from "../support/eventually.ts";
import { abortedUpload } from "../support/rawHttp.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const lines: string[] = [];
let server: TestServer;
let key: string;
let embedKey: string;
beforeAll(async () => {
  server = await startTestServer({ demo: false, app: { logger: createLogger("info", (line) => lines.push(line)) } });
  key = await server.createKey({ rateLimitPerMinute: 10_000 });
  embedKey = await server.createKey({ origins: [EMBED_ORIGIN], rateLimitPerMinute: 10_000 });
});
afterAll(() => server.close());

const parsed = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);

test.each(BODY_SURFACES.filter((s) => s.keyed !== null).map((s) => [s.name, s] as const))(
  "%s: an aborted keyed upload is a 499 at info level, in the access log and the metrics",
  async (_name, surface) => {
    const requestId = `abort-${surface.name}`;
    const head = `${postHead(server.url, surface, surface.keyed === "embed" ? embedKey : key, 65_000)}\r\nX-Request-Id: ${requestId}`;
    await abortedUpload(server.url, head, 60_000);
    expect(await eventually(() => parsed().some((l) => l.msg === "request" && l.requestId === requestId))).toBe(true);

    const mine = parsed().filter((l) => l.requestId === requestId);
    expect(mine).toEqual([expect.objectContaining({ level: "info", msg: "request", method: "POST", status: 499 })]);
    expect(parsed().filter((l) => l.level === "error")).toEqual([]);
    const metrics = await (await server.request("/metrics")).text();
    expect(metrics).toContain(`route="${mine[0]!.route as string}",status="499"}`);
    expect(metrics).not.toContain('status="500"');
  },
);
