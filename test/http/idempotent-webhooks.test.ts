/**
 * Issue 28, §1 and §2 together: a lead's or quote's write carries its idempotency record and its
 * webhook event in one transaction (src/storage/stores/createdWith.ts). A retried request with the
 * same Idempotency-Key replays the first answer and queues no second event, also when the
 * requests race (settled inside the write); another key queues its own. Over SQLite, the keyed quote leaves the prepared path for the executor's: both paths
 * write the event.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eventually } from "../support/eventually.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { WebhookReceiver } from "../support/webhookReceiver.ts";

const LEAD = { name: "Replay Test", email: "replay@example.ca", phone: "(416) 555-0142", insuranceType: "Home" };
const QUOTE = { insuranceType: "Auto", province: "ON", postalCode: "M5V 3L9", details: { vehicleYear: 2020, vehicleMake: "Toyota", vehicleModel: "Corolla", driverAge: 35, cleanRecord: true } };

let server: TestServer;
let receiver: WebhookReceiver;
let manager: string;
let writer: string;
let endpointId: string;

beforeAll(async () => {
  receiver = new WebhookReceiver();
  server = await startTestServer({ demo: false, app: { webhooks: { allowHttpLoopback: true, retryBaseSeconds: 0.05, timeoutSeconds: 1 } } });
  manager = await server.createKey({ workspace: "replays", scopes: ["webhooks:manage"], rateLimitPerMinute: 100_000 });
  writer = await server.createKey({ workspace: "replays", scopes: ["leads:write", "quotes:write"], rateLimitPerMinute: 10_000 });
  const registered = await server.request("/api/v1/webhooks", {
    key: manager,
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ url: receiver.url("/replays"), events: ["lead.created", "quote.created"] }),
  });
  expect(registered.status).toBe(201);
  endpointId = ((await registered.json()) as { data: { id: string } }).data.id;
});
afterAll(async () => {
  await server.close();
  receiver.stop();
});

function post(path: string, body: unknown, idempotencyKey: string): Promise<Response> {
  return server.request(path, { key: writer, method: "POST", headers: { "Content-Type": "application/json", "Idempotency-Key": idempotencyKey }, body: JSON.stringify(body) });
}

async function eventTypes(): Promise<string[]> {
  const response = await server.request(`/api/v1/webhooks/${endpointId}/deliveries`, { key: manager });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { type: string }[] }).data.map((d) => d.type).sort();
}

test("a replayed lead and a replayed quote queue no second event; a new key queues its own", async () => {
  for (const [path, body, key] of [["/api/v1/leads", LEAD, "lead-1"], ["/api/v1/embed/quotes", QUOTE, "quote-1"]] as const) {
    const first = await post(path, body, key);
    const again = await post(path, body, key);
    expect([first.status, again.status, again.headers.get("Idempotent-Replayed")]).toEqual([201, 201, "true"]);
    expect(await again.text()).toBe(await first.text());
  }
  expect(await post("/api/v1/leads", LEAD, "lead-2").then((r) => r.status)).toBe(201);
  // Ten at once with one key: one lead, one event, ten identical answers (whether a request found
  // the first's record before writing or lost the race inside the write: the next test forces that).
  const racing = await Promise.all(Array.from({ length: 10 }, () => post("/api/v1/leads", LEAD, "lead-3")));
  expect(new Set(await Promise.all(racing.map((r) => r.text()))).size).toBe(1);

  const expected = ["lead.created", "lead.created", "lead.created", "quote.created"];
  await eventually(async () => (await eventTypes()).join() === expected.join());
  expect(await eventTypes()).toEqual(expected);
  expect(await server.countRows("webhook_events")).toBe(4);
  expect(await server.countRows("leads")).toBe(3);
  expect(await server.countRows("quotes")).toBe(1);
});

test("two writes racing for one key inside the store: one claims it and writes the lead and its event, the other writes neither", async () => {
  const { keys, leads, now } = server.app.services;
  const workspaceId = (await keys.workspaceByName("replays"))!.id;
  const at = now();
  const record = { workspaceId, key: "store-race", fingerprint: "f", answer: "{}", createdAt: at };
  const lead = (id: string) => ({ id, workspaceId, ...LEAD, phone: "+14165550142", notes: null, brokerSlug: null, quoteId: null, source: "api", status: "new", createdAt: at });
  const event = (id: string) => ({ id, workspaceId, type: "lead.created", data: { id }, createdAt: at });
  const eventsBefore = await server.countRows("webhook_events");
  // Issued in the same turn: both reach the same write batch (SQLite) or the same unique key (PostgreSQL).
  const outcomes = await Promise.all([leads.insert(lead("ld_race_a"), { record, event: event("msg_race_a") }), leads.insert(lead("ld_race_b"), { record, event: event("msg_race_b") })]);
  expect(outcomes.map((o) => o.held === undefined).sort()).toEqual([false, true]);
  expect(await server.countRows("webhook_events")).toBe(eventsBefore + 1);
  expect(Number((await server.rows<{ n: number | string }>("SELECT count(*) AS n FROM leads WHERE id IN ('ld_race_a', 'ld_race_b')"))[0]!.n)).toBe(1);
});
