/**
 * Issue 28: the console's Webhooks page works through /console/api/webhooks, the same
 * procedures as REST, with the session's workspace: register (the secret once), Send test event,
 * the deliveries with status, attempts, response code and latency, Resend, disable (the reason
 * shown), delete; a change without the session's CSRF token is refused.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { consoleRequest, signIn, type ConsoleSession } from "../support/console.ts";
import { eventually } from "../support/eventually.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { WebhookReceiver } from "../support/webhookReceiver.ts";

let server: TestServer;
let session: ConsoleSession;
const receiver = new WebhookReceiver();

beforeAll(async () => {
  server = await startTestServer({ demo: false, app: { webhooks: { allowHttpLoopback: true } } });
  session = await signIn(server, "console-hooks");
});
afterAll(async () => {
  await server.close();
  receiver.stop();
});

const json = async <T>(response: Response) => ((await response.json()) as { data: T }).data;

test("register, send a test event, read its delivery, resend it, disable and delete, all from the console", async () => {
  const made = await consoleRequest(server, session, "/console/api/webhooks", { method: "POST", body: { url: receiver.url("/console"), events: ["lead.created"] } });
  expect(made.status).toBe(201);
  const endpoint = await json<{ id: string; secret: string }>(made);
  expect(endpoint.secret).toMatch(/^whsec_/);
  const listed = await json<{ data: { id: string }[] }>(await consoleRequest(server, session, "/console/api/webhooks"));
  expect(listed.data.map((e) => e.id)).toEqual([endpoint.id]);

  expect((await consoleRequest(server, session, `/console/api/webhooks/${endpoint.id}/test`, { method: "POST" })).status).toBe(200);
  expect(await eventually(() => receiver.at("/console").length === 1, 5_000)).toBe(true);
  const deliveries = async () => (await json<{ data: { id: number; status: string; attempts: number; responseStatus: number; latencyMs: number }[] }>(await consoleRequest(server, session, `/console/api/webhooks/${endpoint.id}/deliveries`))).data;
  expect(await eventually(async () => (await deliveries())[0]?.status === "delivered", 5_000)).toBe(true);
  const [first] = await deliveries();
  expect(first).toMatchObject({ attempts: 1, responseStatus: 200 });
  expect(first!.latencyMs).toBeGreaterThanOrEqual(0);

  expect((await consoleRequest(server, session, `/console/api/webhooks/${endpoint.id}/deliveries/${first!.id}/resend`, { method: "POST" })).status).toBe(200);
  expect(await eventually(() => receiver.at("/console").length === 2, 5_000)).toBe(true);

  const disabled = await json<{ status: string; disabledReason: string }>(await consoleRequest(server, session, `/console/api/webhooks/${endpoint.id}`, { method: "PATCH", body: { enabled: false } }));
  expect(disabled).toMatchObject({ status: "disabled", disabledReason: "disabled by the workspace" });
  expect((await consoleRequest(server, session, `/console/api/webhooks/${endpoint.id}`, { method: "DELETE" })).status).toBe(200);
  expect((await json<{ data: unknown[] }>(await consoleRequest(server, session, "/console/api/webhooks"))).data).toEqual([]);
});

test("a change without the session's CSRF token is refused", async () => {
  const response = await consoleRequest(server, session, "/console/api/webhooks", { method: "POST", body: { url: receiver.url("/x"), events: ["lead.created"] }, headers: { "X-CSRF-Token": "wrong" } });
  expect(response.status).toBe(403);
});
