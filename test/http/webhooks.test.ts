/**
 * Issue 28: webhooks through a real server. A receiving Bun.serve on loopback (the server runs
 * with the loopback allowance, as in development) checks what arrives with the standardwebhooks
 * library; short retry waits (WEBHOOKS_RETRY_BASE_SECONDS) keep the retry tests to a second or two.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { eventually } from "../support/eventually.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { WebhookReceiver } from "../support/webhookReceiver.ts";

interface Endpoint { id: string; url: string; events: string[]; secret?: string; status: string; disabledReason: string | null; previousSecretExpiresAt: string | null }
interface Delivery { id: number; eventId: string; type: string; status: string; attempts: number; responseStatus: number | null; latencyMs: number | null; error: string | null; responseBody: string | null }

const LEAD = { name: "Hook Test", email: "hook@example.ca", phone: "(416) 555-0199", insuranceType: "Home" };
const QUOTE = { insuranceType: "Auto", province: "ON", postalCode: "M5V 3L9", details: { vehicleYear: 2020, vehicleMake: "Toyota", vehicleModel: "Corolla", driverAge: 35, cleanRecord: true } };

let server: TestServer;
let receiver: WebhookReceiver;
let manager: string;
let writer: string;

beforeAll(async () => {
  receiver = new WebhookReceiver();
  server = await startTestServer({ demo: false, app: { webhooks: { allowHttpLoopback: true, retryBaseSeconds: 0.05, timeoutSeconds: 1 } } });
  manager = await server.createKey({ workspace: "hooks", scopes: ["webhooks:manage"], rateLimitPerMinute: 100_000 });
  writer = await server.createKey({ workspace: "hooks", scopes: ["leads:write", "leads:read", "quotes:write"], rateLimitPerMinute: 10_000 });
});
afterAll(async () => {
  await server.close();
  receiver.stop();
});

function call(method: string, path: string, key: string, body?: unknown): Promise<Response> {
  return server.request(path, { key, method, headers: body === undefined ? {} : { "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
}

async function register(path: string, events = ["lead.created", "lead.status_changed", "quote.created"], key = manager): Promise<Endpoint> {
  const response = await call("POST", "/api/v1/webhooks", key, { url: receiver.url(path), events, description: `test ${path}` });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: Endpoint }).data;
}

async function createLead(): Promise<{ id: string }> {
  const response = await call("POST", "/api/v1/leads", writer, LEAD);
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data;
}

async function deliveries(endpointId: string, key = manager): Promise<Delivery[]> {
  const response = await call("GET", `/api/v1/webhooks/${endpointId}/deliveries`, key);
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: Delivery[] }).data;
}

test("a key without webhooks:manage gets 403 scope_missing on every webhooks route; a key made without scopes named lacks it", async () => {
  for (const [method, path] of [["GET", "/api/v1/webhooks"], ["POST", "/api/v1/webhooks"], ["GET", "/api/v1/webhooks/we_x/deliveries"], ["DELETE", "/api/v1/webhooks/we_x"]] as const) {
    const response = await call(method, path, writer, method === "POST" ? { url: receiver.url("/x"), events: ["lead.created"] } : undefined);
    expect(response.status).toBe(403);
    expect(((await response.json()) as { code: string }).code).toBe("scope_missing");
  }
  const implicit = await server.createKey({ workspace: "hooks" });
  expect((await call("GET", "/api/v1/webhooks", implicit)).status).toBe(403);
});

test("registration answers the whsec_ secret once; listing and reading never show it", async () => {
  const made = await register("/once");
  expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
  expect(made).toMatchObject({ url: receiver.url("/once"), events: ["lead.created", "lead.status_changed", "quote.created"], status: "enabled" });
  const listed = ((await (await call("GET", "/api/v1/webhooks", manager)).json()) as { data: Endpoint[] }).data;
  expect(listed.find((e) => e.id === made.id)).toBeDefined();
  expect(JSON.stringify(listed)).not.toContain("whsec_");
  const one = await call("GET", `/api/v1/webhooks/${made.id}`, manager);
  expect(JSON.stringify(await one.json())).not.toContain("whsec_");
});

test("registration refuses at once, with a 422 naming url: http to a public host, private, metadata, link-local and unique-local literals", async () => {
  for (const url of ["http://hooks.example.com/x", "https://10.0.0.1/x", "https://169.254.169.254/latest/meta-data", "https://169.254.1.1/", "https://[fd00::1]/x", "https://[::ffff:10.0.0.1]/x", "https://user:pw@hooks.example.com/", "ftp://hooks.example.com/"]) {
    const response = await call("POST", "/api/v1/webhooks", manager, { url, events: ["lead.created"] });
    expect(response.status, url).toBe(422);
    const body = (await response.json()) as { code: string; error: string };
    expect(body.code).toBe("invalid_parameter");
    expect(body.error, url).toContain("url");
  }
});

test("lead.created arrives signed per Standard Webhooks; its data is the lead as POST /leads answered it", async () => {
  const endpoint = await register("/signed");
  const response = await call("POST", "/api/v1/leads", writer, LEAD);
  const committedAt = Date.now();
  const lead = ((await response.json()) as { data: Record<string, unknown> }).data;
  expect(await eventually(() => receiver.at("/signed").length === 1, 5_000)).toBe(true);
  const [hook] = receiver.at("/signed");
  // The bound: the first attempt within a second or two of the commit (the instance that
  // took the request looks at once; a few milliseconds on an idle machine).
  expect(hook!.at - committedAt).toBeLessThan(2_000);
  const verified = new Webhook(endpoint.secret!).verify(hook!.body, hook!.headers) as { id: string; type: string; createdAt: string; data: unknown };
  expect(Object.keys(verified)).toEqual(["id", "type", "createdAt", "data"]);
  expect(verified.type).toBe("lead.created");
  expect(verified.id).toBe(hook!.headers["webhook-id"]!);
  expect(verified.id).toMatch(/^msg_/);
  expect(verified.data).toEqual(lead);
  expect(hook!.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
  // The wrong secret is refused by the same library.
  expect(() => new Webhook(`whsec_${Buffer.from("another secret, 24 bytes").toString("base64")}`).verify(hook!.body, hook!.headers)).toThrow();
  const [delivery] = await deliveries(endpoint.id);
  expect(delivery).toMatchObject({ eventId: verified.id, type: "lead.created", status: "delivered", attempts: 1, responseStatus: 200, responseBody: "ok" });
});

test("quote.created and lead.status_changed arrive; an endpoint gets only the events it subscribed to", async () => {
  const quotesOnly = await register("/quotes-only", ["quote.created"]);
  const statuses = await register("/statuses", ["lead.status_changed"]);
  const quote = await call("POST", "/api/v1/embed/quotes", writer, QUOTE);
  expect(quote.status).toBe(201);
  const quoteView = ((await quote.json()) as { data: { quoteId: string } }).data;
  const lead = await createLead();
  expect((await call("PATCH", `/api/v1/leads/${lead.id}`, writer, { note: "a note alone changes no status" })).status).toBe(200);
  expect((await call("PATCH", `/api/v1/leads/${lead.id}`, writer, { status: "contacted" })).status).toBe(200);
  expect(await eventually(() => receiver.at("/quotes-only").length === 1 && receiver.at("/statuses").length === 1, 5_000)).toBe(true);
  const [quoted] = receiver.events("/quotes-only");
  expect(quoted).toMatchObject({ type: "quote.created", data: quoteView });
  const [changed] = receiver.events("/statuses");
  expect(changed).toMatchObject({ type: "lead.status_changed", data: { id: lead.id, status: "contacted", previousStatus: "new" } });
  await Bun.sleep(300);
  expect(receiver.at("/quotes-only").length).toBe(1);
  expect(receiver.at("/statuses").length).toBe(1);
  expect((await deliveries(quotesOnly.id)).length).toBe(1);
  expect((await deliveries(statuses.id)).length).toBe(1);
});

test("an endpoint failing three times then answering 200 gets the event four times, always with the same webhook-id", async () => {
  receiver.answer("/flaky", (_hook, count) => new Response("not yet", { status: count <= 3 ? 503 : 200 }));
  const endpoint = await register("/flaky", ["lead.created"]);
  await createLead();
  expect(await eventually(async () => (await deliveries(endpoint.id))[0]?.status === "delivered", 10_000)).toBe(true);
  const hooks = receiver.at("/flaky");
  expect(hooks.length).toBe(4);
  expect(new Set(hooks.map((h) => h.headers["webhook-id"])).size).toBe(1);
  for (const hook of hooks) new Webhook(endpoint.secret!).verify(hook.body, hook.headers);
  expect((await deliveries(endpoint.id))[0]).toMatchObject({ attempts: 4, responseStatus: 200 });
  // The success ended the run of failures.
  expect(((await (await call("GET", `/api/v1/webhooks/${endpoint.id}`, manager)).json()) as { data: { failingSince: string | null } }).data.failingSince).toBeNull();
});

test("410 Gone disables the endpoint, says why, and nothing more is sent to it", async () => {
  receiver.answer("/gone", () => new Response("gone", { status: 410 }));
  const endpoint = await register("/gone", ["lead.created"]);
  await createLead();
  expect(await eventually(async () => ((await (await call("GET", `/api/v1/webhooks/${endpoint.id}`, manager)).json()) as { data: Endpoint }).data.status === "disabled", 5_000)).toBe(true);
  const read = ((await (await call("GET", `/api/v1/webhooks/${endpoint.id}`, manager)).json()) as { data: Endpoint }).data;
  expect(read.disabledReason).toContain("410");
  await createLead();
  await Bun.sleep(500);
  expect(receiver.at("/gone").length).toBe(1);
  // A disabled endpoint is not queued for at all: its one delivery is the one that got the 410.
  const log = await deliveries(endpoint.id);
  expect(log.length).toBe(1);
  expect(log[0]).toMatchObject({ status: "failed", attempts: 1, responseStatus: 410 });
});

test("a redirect is not followed: the 302 is a failed attempt and its Location never receives anything", async () => {
  receiver.answer("/redirect", () => new Response(null, { status: 302, headers: { Location: receiver.url("/redirect-target") } }));
  const endpoint = await register("/redirect", ["lead.created"]);
  await createLead();
  expect(await eventually(async () => (await deliveries(endpoint.id))[0]?.responseStatus === 302, 5_000)).toBe(true);
  const [delivery] = await deliveries(endpoint.id);
  expect(delivery!.status).toBe("pending");
  expect(delivery!.error).toContain("redirects are not followed");
  expect(receiver.at("/redirect-target").length).toBe(0);
  await call("DELETE", `/api/v1/webhooks/${endpoint.id}`, manager);
});

test("an attempt gets no more than its timeout, and only the first 1 KiB of a large answer is kept", async () => {
  receiver.answer("/slow", async () => {
    await Bun.sleep(1_500);
    return new Response("late");
  });
  receiver.answer("/large", () => new Response("x".repeat(1024 * 1024)));
  const slow = await register("/slow", ["lead.created"]);
  const large = await register("/large", ["lead.created"]);
  await createLead();
  expect(await eventually(async () => (await deliveries(slow.id))[0]?.error?.includes("no answer within 1 s") ?? false, 5_000)).toBe(true);
  expect(await eventually(async () => (await deliveries(large.id))[0]?.status === "delivered", 5_000)).toBe(true);
  expect((await deliveries(large.id))[0]!.responseBody!.length).toBe(1024);
  await call("DELETE", `/api/v1/webhooks/${slow.id}`, manager);
});

test("rolling the secret with an overlap: deliveries carry two signatures, each verifying with its own secret; without overlap one", async () => {
  const endpoint = await register("/rolled", ["lead.created"]);
  const rolled = await call("POST", `/api/v1/webhooks/${endpoint.id}/roll-secret`, manager, { overlap: "1h" });
  expect(rolled.status).toBe(200);
  const next = ((await rolled.json()) as { data: Endpoint }).data;
  expect(next.secret).toMatch(/^whsec_/);
  expect(next.secret).not.toBe(endpoint.secret);
  expect(next.previousSecretExpiresAt).not.toBeNull();
  await createLead();
  expect(await eventually(() => receiver.at("/rolled").length === 1, 5_000)).toBe(true);
  const [hook] = receiver.at("/rolled");
  const signatures = hook!.headers["webhook-signature"]!.split(" ");
  expect(signatures.length).toBe(2);
  const pairs: [string, string][] = [[next.secret!, signatures[0]!], [endpoint.secret!, signatures[1]!]];
  for (const [secret, signature] of pairs) new Webhook(secret).verify(hook!.body, { ...hook!.headers, "webhook-signature": signature });

  const now = ((await (await call("POST", `/api/v1/webhooks/${endpoint.id}/roll-secret`, manager, { overlap: "now" })).json()) as { data: Endpoint }).data;
  await createLead();
  expect(await eventually(() => receiver.at("/rolled").length === 2, 5_000)).toBe(true);
  const second = receiver.at("/rolled")[1]!;
  expect(second.headers["webhook-signature"]!.split(" ").length).toBe(1);
  new Webhook(now.secret!).verify(second.body, second.headers);
  expect(() => new Webhook(next.secret!).verify(second.body, second.headers)).toThrow();
});

test("roll-secret takes no body at all: the overlap is then 24 hours", async () => {
  const endpoint = await register("/bodyless", ["lead.created"]);
  const rolled = await call("POST", `/api/v1/webhooks/${endpoint.id}/roll-secret`, manager);
  expect(rolled.status).toBe(200);
  const next = ((await rolled.json()) as { data: Endpoint }).data;
  expect(next.secret).toMatch(/^whsec_/);
  const hours = (Date.parse(next.previousSecretExpiresAt!) - Date.now()) / 3_600_000;
  expect(hours).toBeGreaterThan(23.9);
  expect(hours).toBeLessThanOrEqual(24);
});

test("Send test event and Resend: a webhook.test arrives, and a resend carries the same webhook-id", async () => {
  const endpoint = await register("/tested", ["lead.created"]);
  const tested = await call("POST", `/api/v1/webhooks/${endpoint.id}/test`, manager);
  expect(tested.status).toBe(202);
  expect(await eventually(() => receiver.at("/tested").length === 1, 5_000)).toBe(true);
  expect(receiver.events("/tested")[0]!.type).toBe("webhook.test");
  const [delivery] = await deliveries(endpoint.id);
  expect(await eventually(async () => (await deliveries(endpoint.id))[0]?.status === "delivered", 5_000)).toBe(true);
  const resent = await call("POST", `/api/v1/webhooks/${endpoint.id}/deliveries/${delivery!.id}/resend`, manager);
  expect(resent.status).toBe(202);
  expect(await eventually(() => receiver.at("/tested").length === 2, 5_000)).toBe(true);
  const [first, again] = receiver.at("/tested");
  expect(again!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]!);
});

test("another workspace sees neither the endpoint nor its deliveries (so never a response body), and its events go to its own endpoints only", async () => {
  const endpoint = await register("/private", ["lead.created"]);
  const other = await server.createKey({ workspace: "someone-else", scopes: ["webhooks:manage"] });
  for (const path of [`/api/v1/webhooks/${endpoint.id}`, `/api/v1/webhooks/${endpoint.id}/deliveries`]) {
    const response = await call("GET", path, other);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { code: string }).code).toBe("webhook_not_found");
  }
  for (const [method, path, body] of [
    ["PATCH", `/api/v1/webhooks/${endpoint.id}`, { enabled: false }],
    ["POST", `/api/v1/webhooks/${endpoint.id}/roll-secret`, { overlap: "now" }],
    ["POST", `/api/v1/webhooks/${endpoint.id}/test`, undefined],
    ["DELETE", `/api/v1/webhooks/${endpoint.id}`, undefined],
  ] as const) {
    const response = await call(method, path, other, body);
    expect(response.status, `${method} ${path}`).toBe(404);
  }
  expect(((await (await call("GET", `/api/v1/webhooks/${endpoint.id}`, manager)).json()) as { data: Endpoint }).data.status).toBe("enabled");
  expect(((await (await call("GET", "/api/v1/webhooks", other)).json()) as { data: unknown[] }).data).toEqual([]);
  const otherWriter = await server.createKey({ workspace: "someone-else", scopes: ["leads:write"] });
  expect((await call("POST", "/api/v1/leads", otherWriter, LEAD)).status).toBe(201);
  await Bun.sleep(300);
  expect(receiver.at("/private").length).toBe(0);
});

test("PATCH changes events and disables or enables; DELETE removes it", async () => {
  const endpoint = await register("/patched", ["lead.created"]);
  const patched = await call("PATCH", `/api/v1/webhooks/${endpoint.id}`, manager, { events: ["quote.created"], enabled: false });
  expect(patched.status).toBe(200);
  expect(((await patched.json()) as { data: Endpoint }).data).toMatchObject({ events: ["quote.created"], status: "disabled", disabledReason: "disabled by the workspace" });
  const refused = await call("PATCH", `/api/v1/webhooks/${endpoint.id}`, manager, { url: "https://192.168.1.10/hook" });
  expect(refused.status).toBe(422);
  expect(((await (await call("PATCH", `/api/v1/webhooks/${endpoint.id}`, manager, { enabled: true })).json()) as { data: Endpoint }).data.status).toBe("enabled");
  expect((await call("DELETE", `/api/v1/webhooks/${endpoint.id}`, manager)).status).toBe(200);
  expect((await call("GET", `/api/v1/webhooks/${endpoint.id}`, manager)).status).toBe(404);
});

test("the housekeeping purge drops finished deliveries older than 30 days and their events; pending ones stay", async () => {
  expect(await server.countRows("webhook_deliveries")).toBeGreaterThan(0);
  const realNow = server.app.services.now;
  server.app.services.now = () => realNow() + 31 * 86_400_000;
  try {
    await server.app.maintenance.purgeNow();
  } finally {
    server.app.services.now = realNow;
  }
  const left = await server.rows<{ status: string }>("SELECT status FROM webhook_deliveries");
  expect(left.every((d) => d.status === "pending")).toBe(true);
  const orphans = await server.rows("SELECT id FROM webhook_events e WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)");
  expect(orphans).toEqual([]);
});

describe("without the loopback allowance", () => {
  let strict: TestServer;
  let strictKey: string;
  let strictWriter: string;
  beforeAll(async () => {
    strict = await startTestServer({ demo: false, app: { webhooks: { retryBaseSeconds: 0.05, giveUpHours: 0.0005 } } });
    strictKey = await strict.createKey({ workspace: "strict", scopes: ["webhooks:manage"], rateLimitPerMinute: 100_000 });
    strictWriter = await strict.createKey({ workspace: "strict", scopes: ["leads:write"] });
  });
  afterAll(() => strict.close());

  const strictCall = (method: string, path: string, key: string, body?: unknown) =>
    strict.request(path, { key, method, headers: { "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });

  test("loopback URLs are refused at registration: [::1], ::ffff:127.0.0.1, 127.0.0.1, localhost, http or https", async () => {
    for (const url of ["https://[::1]/x", "https://[::ffff:127.0.0.1]/x", "http://127.0.0.1:8080/x", "https://localhost/x", "http://localhost:3000/x", "https://2130706433/x"]) {
      const response = await strictCall("POST", "/api/v1/webhooks", strictKey, { url, events: ["lead.created"] });
      expect(response.status, url).toBe(422);
      expect(((await response.json()) as { error: string }).error, url).toContain("url");
    }
  });

  test("a name that resolves to loopback (/etc/hosts) is refused at delivery, and an endpoint failing for the whole give-up window is disabled, saying why", async () => {
    // `vm` is in this machine's /etc/hosts as 127.0.0.1: registration cannot know, delivery resolves it.
    const made = await strictCall("POST", "/api/v1/webhooks", strictKey, { url: `https://vm:${receiver.url("/").split(":")[2]}`, events: ["lead.created"] });
    expect(made.status).toBe(201);
    const endpoint = ((await made.json()) as { data: Endpoint }).data;
    expect((await strictCall("POST", "/api/v1/leads", strictWriter, LEAD)).status).toBe(201);
    const read = async () => ((await (await strictCall("GET", `/api/v1/webhooks/${endpoint.id}`, strictKey)).json()) as { data: Endpoint }).data;
    const listed = async () => ((await (await strictCall("GET", `/api/v1/webhooks/${endpoint.id}/deliveries`, strictKey)).json()) as { data: Delivery[] }).data;
    expect(await eventually(async () => (await listed())[0]?.error?.includes("vm resolves to a loopback address") ?? false, 5_000)).toBe(true);
    expect((await listed())[0]!.responseStatus).toBeNull();
    // Which address the name resolved to is not told: the workspace would learn our network's names.
    expect((await listed())[0]!.error).not.toContain("127.0.0.1");
    // Give-up window 1.8 s (WEBHOOKS_GIVE_UP_HOURS=0.0005): the run of failures disables it.
    expect(await eventually(async () => (await read())?.status === "disabled", 8_000)).toBe(true);
    // Disabled by the failure that gave the event up, not one event later.
    expect((await listed())[0]!.status).toBe("failed");
    expect((await read()).disabledReason).toContain("in a row");
    expect(receiver.received.some((h) => h.headers.host?.startsWith("vm"))).toBe(false);
  }, 15_000); // the give-up window and the retries within it take a few seconds by design
});
