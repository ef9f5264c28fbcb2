/**
 * Bodies sent a byte at a time: each is cut at the body deadline on every surface (its
 * descriptor and its place in flight given back), and one address cannot hold more than its
 * share of uploads (requests with a body) at once: the next is refused with a JSON 429 while other addresses are
 * served. (Before, such a body held its descriptor until the 120 s idle timeout, and 19,975 of
 * them from one address exhausted the descriptor limit.) The server is a child process, so its
 * descriptors are its own; curl from other loopback addresses (127/8) plays the other clients.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { ServedProcess } from "../cli/cliHarness.ts";
import { BODY_SURFACES, postHead, requestsInFlight, serveWithSurfaceKeys, type SurfaceServer } from "../support/bodySurfaces.ts";
import { eventually } from "../support/eventually.ts";
import { requestFrom, slowBody } from "../support/rawHttp.ts";

const BODY_TIMEOUT_SECONDS = 1;
const MAX_PER_CLIENT = 10;

let running: SurfaceServer;
let server: ServedProcess;
beforeAll(async () => {
  running = await serveWithSurfaceKeys(["--body-timeout", String(BODY_TIMEOUT_SECONDS), "--max-uploads-per-client", String(MAX_PER_CLIENT)]);
  server = running.server;
}, 30_000);
afterAll(() => running?.stop());

const inFlight = () => requestsInFlight(server.url);

/**
 * The server's ends of the connections from these client ports that are still open: its
 * /proc/net/tcp entries on its port, to one of them, ESTABLISHED or CLOSE_WAIT (a server that
 * never closes a cut connection leaves it in CLOSE_WAIT, its descriptor held). Named by port, so
 * the test client's own pooled connections (the in-flight scrapes) never count.
 */
function serverEndsOf(clientPorts: readonly number[]): number {
  const port = Number(new URL(server.url).port);
  const portOf = (address: string | undefined) => parseInt(address?.split(":")[1] ?? "", 16);
  return readFileSync("/proc/net/tcp", "utf8")
    .split("\n")
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => portOf(fields[1]) === port && clientPorts.includes(portOf(fields[2])) && (fields[3] === "01" || fields[3] === "08")).length;
}

/** Resolves with `promise`'s value, or "still open" once `ms` pass. */
const within = <T,>(promise: Promise<T>, ms: number) => Promise.race([promise, Bun.sleep(ms).then(() => "still open" as const)]);

// Bun enforces the deadline on its own clock, in steps of a few seconds: a 1 s deadline cuts
// within ~5 s. The old 120 s idle timeout would have let every one of them run on.
test("a body sent a byte at a time is cut at the deadline on every surface, keyed or not, and its descriptor freed", async () => {
  expect(await inFlight()).toBe(0);
  const heads = BODY_SURFACES.flatMap((surface) => [
    postHead(server.url, surface, undefined, 1_000),
    ...(surface.keyed ? [postHead(server.url, surface, running.keyFor(surface), 1_000)] : []),
  ]);
  expect(heads.length).toBeLessThanOrEqual(MAX_PER_CLIENT); // the cap is the next test's
  const slow = heads.map((head) => slowBody(server.url, head, 200));
  expect(await eventually(async () => (await inFlight()) === heads.length)).toBe(true);
  // The slow uploads' own connections, by their ports (counting every connection on the server's
  // port also counted the scrapes' pooled ones, which come and go: it failed so in CI). /proc/net/tcp
  // is read in chunks that a changing table can skip a line of: read it again until it shows them.
  const ports = slow.map((s) => s.localPort()).filter((p): p is number => p !== undefined);
  expect(ports).toHaveLength(heads.length);
  expect(await eventually(() => serverEndsOf(ports) === heads.length)).toBe(true);

  const ends = await Promise.all(slow.map((s) => within(s.closed, 15_000)));
  slow.forEach((s) => s.close());
  expect(ends).not.toContain("still open");
  expect(await eventually(async () => (await inFlight()) === 0)).toBe(true);
  expect(await eventually(() => serverEndsOf(ports) === 0)).toBe(true);
}, 30_000);

test("one address gets its share of uploads in progress, the next a JSON 429, while other addresses are served", async () => {
  const head = postHead(server.url, BODY_SURFACES.find((s) => s.name === "tRPC")!, undefined, 1_000);
  const held = Array.from({ length: MAX_PER_CLIENT }, () => slowBody(server.url, head, 100));
  expect(await eventually(async () => (await inFlight()) === MAX_PER_CLIENT)).toBe(true);

  const upload = { method: "POST", body: "{}", headers: { "Content-Type": "application/json" } };
  const refused = await fetch(`${server.url}/api/v1/leads`, upload);
  expect(refused.status).toBe(429);
  expect(refused.headers.get("retry-after")).toBe("1");
  expect((await refused.json()) as unknown).toMatchObject({ error: expect.stringContaining(`${MAX_PER_CLIENT} requests with a body at most at once`), code: "too_many_uploads" });
  // Requests without a body are not counted: nothing a client sends can hold them open.
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  // A slow body refused so is not waited for: it holds no place in flight, and its connection is closed.
  const refusedSlow = slowBody(server.url, head, 100);
  const { text } = (await within(refusedSlow.closed, 15_000)) as { text: string };
  expect(text).toStartWith("HTTP/1.1 429");

  // Another address uploads as usual (no key: a 401, not the cap's 429).
  expect((await requestFrom("127.0.0.2", `${server.url}/api/v1/leads`, "{}")).status).toBe(401);

  held.forEach((s) => s.close());
  expect(await eventually(async () => (await inFlight()) === 0)).toBe(true);
  expect((await fetch(`${server.url}/api/v1/leads`, upload)).status).toBe(401);
}, 30_000);
