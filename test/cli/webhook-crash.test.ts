/**
 * Issue 28: the outbox's promise, checked the hard way. The server (a real child process) is
 * killed with SIGKILL while deliveries are in flight (the receiver holds its answers); after a
 * restart every event of every acknowledged lead arrives at least once, and an event that
 * arrives twice carries the same webhook-id both times. On both backends (over PostgreSQL the
 * harness gives the path its own database).
 *
 * About 12 s by design: a claim made by the killed process is due again only when its lease ends
 * (twice the attempt timeout plus 5 s; the timeout is 3 s here, longer than the receiver holds
 * its answers before the kill, so no attempt ends before it).
 */
import { afterAll, expect, test } from "bun:test";
import { runCli, startServe, tempDir, type ServedProcess } from "./cliHarness.ts";
import { eventually } from "../support/eventually.ts";
import { WebhookReceiver } from "../support/webhookReceiver.ts";
import { childExit } from "../support/childExit.ts";

const tmp = tempDir();
const receiver = new WebhookReceiver();
let server: ServedProcess | undefined;
afterAll(() => {
  server?.proc.kill("SIGKILL");
  receiver.stop();
  tmp.remove();
});

const LEADS = 12;

function serve(path: string): Promise<ServedProcess> {
  const flags = ["--port", "0", "--host", "127.0.0.1", "--no-demo", "--log-level", "warn", "--webhooks-allow-http-loopback", "--webhooks-timeout", "3", "--webhooks-retry-base", "0.1"];
  return startServe(flags, { env: { DATABASE_PATH: path } });
}

async function key(path: string, scopes: string): Promise<string> {
  const made = await runCli(["keys", "create", "--workspace", "crash", "--scopes", scopes, "--rate-limit", "100000", "--json"], { DATABASE_PATH: path });
  expect(made.code, made.stderr).toBe(0);
  return (JSON.parse(made.stdout) as { key: string }).key;
}

/** A request to the running server with a key and a JSON body (or none). */
function call(method: string, path: string, auth: string, body?: unknown): Promise<Response> {
  const headers = { Authorization: `Bearer ${auth}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) };
  return fetch(server!.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

/** A server on a fresh database, a workspace's two keys, and its endpoint on the receiver's path for lead.created. */
async function serveWithEndpoint(name: string, hookPath: string): Promise<{ path: string; manager: string; writer: string; endpointId: string }> {
  const path = tmp.path(name);
  // The previous test's server (restarted at its end) is stopped first: never left running after the file.
  if (server) {
    server.proc.kill("SIGKILL");
    await childExit(server.proc);
  }
  server = await serve(path);
  const manager = await key(path, "webhooks:manage");
  const writer = await key(path, "leads:write");
  const made = await call("POST", "/api/v1/webhooks", manager, { url: receiver.url(hookPath), events: ["lead.created"] });
  expect(made.status).toBe(201);
  return { path, manager, writer, endpointId: ((await made.json()) as { data: { id: string } }).data.id };
}

/** Creates a lead; answers its id. */
async function createLead(writer: string, n: number): Promise<string> {
  const response = await call("POST", "/api/v1/leads", writer, { name: "Crash Hook", email: `crash${n}@example.ca`, phone: "(416) 555-0199", insuranceType: "Home" });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

test("kill -9 while deliveries are in flight: after a restart every event arrives, duplicates only with the same webhook-id", async () => {
  let held = 0;
  let killed = false;
  const { promise: kill, resolve: release } = Promise.withResolvers<void>();
  // Until the kill, the receiver holds every answer (the attempts stay in flight, none is
  // acknowledged); after it, it answers at once, and only what arrives then counts as delivered.
  const deliveredAfterKill: { lead: string; webhookId: string }[] = [];
  receiver.answer("/crash", async (hook) => {
    if (!killed) {
      held++;
      await kill;
      return new Response("too late");
    }
    deliveredAfterKill.push({ lead: (JSON.parse(hook.body) as { data: { id: string } }).data.id, webhookId: hook.headers["webhook-id"]! });
    return new Response("ok");
  });
  const { path, writer } = await serveWithEndpoint("webhook-crash.db", "/crash");
  const leadIds: string[] = [];
  for (let i = 0; i < LEADS; i++) leadIds.push(await createLead(writer, i));
  // Killed mid-delivery: once every lead's attempt is in flight (or after 1.5 s, some of them).
  await eventually(() => held === LEADS, 1_500);
  expect(held).toBeGreaterThan(0);
  server!.proc.kill("SIGKILL");
  await childExit(server!.proc);
  killed = true;
  release();

  server = await serve(path);
  const arrived = () => new Set(deliveredAfterKill.map((d) => d.lead));
  expect(await eventually(() => leadIds.every((id) => arrived().has(id)), 25_000)).toBe(true);
  // Every attempt of one lead's event, before the kill and after, carried the same webhook-id.
  const idsByLead = new Map<string, Set<string>>();
  for (const hook of receiver.at("/crash")) {
    const lead = (JSON.parse(hook.body) as { data: { id: string } }).data.id;
    idsByLead.set(lead, (idsByLead.get(lead) ?? new Set()).add(hook.headers["webhook-id"]!));
  }
  expect(idsByLead.size).toBe(LEADS);
  for (const ids of idsByLead.values()) expect(ids.size).toBe(1);
}, 60_000);

test("SIGTERM with an attempt in flight: the attempt finishes and is recorded, so it is not sent again", async () => {
  let arrived = 0;
  receiver.answer("/term", async () => {
    arrived++;
    await Bun.sleep(500);
    return new Response("ok");
  });
  const { path, manager, writer, endpointId } = await serveWithEndpoint("webhook-term.db", "/term");
  await createLead(writer, 0);
  expect(await eventually(() => arrived === 1, 5_000)).toBe(true);
  server!.proc.kill("SIGTERM");
  expect(await childExit(server!.proc)).toBe(0);

  server = await serve(path);
  const deliveries = await call("GET", `/api/v1/webhooks/${endpointId}/deliveries`, manager);
  const [delivery] = ((await deliveries.json()) as { data: { status: string; attempts: number; responseStatus: number }[] }).data;
  expect(delivery).toMatchObject({ status: "delivered", attempts: 1, responseStatus: 200 });
  expect(arrived).toBe(1);
}, 30_000);
