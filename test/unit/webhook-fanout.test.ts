/**
 * SQLite's outbox fan-out (src/storage/stores/webhookFanout.ts): a lead's write stores its event
 * with the endpoints that want it and no delivery; the fan-out makes exactly one delivery per
 * endpoint, in batches, never twice (its cursor moves in the same transaction), and a fan-out
 * that fails leaves the cursor where it was, so the next one makes them all. Over PostgreSQL the
 * events come with their deliveries (test/http/webhooks.test.ts runs there too).
 */
import { expect, test } from "bun:test";
import { openDatabase, type DirectoryDb } from "../../src/storage/sqlite/database.ts";
import { migrate } from "../../src/storage/sqlite/migrate.ts";
import { SqliteExecutor } from "../../src/storage/sqlite/sqliteExecutor.ts";
import { LeadStore } from "../../src/storage/stores/leadStore.ts";
import { FANOUT_BATCH, WebhookFanout } from "../../src/storage/stores/webhookFanout.ts";
import { newEventId } from "../../src/storage/stores/webhookOutbox.ts";
import { storedLead } from "../support/storedLead.ts";

function setup(endpoints: string[]) {
  const db = openDatabase(":memory:");
  migrate(db);
  db.$client.run("INSERT INTO workspaces (id, name, created_at) VALUES ('ws', 'Workspace', 0)");
  for (const id of endpoints) {
    db.$client.run(
      "INSERT INTO webhook_endpoints (id, workspace_id, url, events, secret, created_at, updated_at) VALUES (?, 'ws', 'https://example.com/hook', '[\"lead.created\"]', 'whsec_x', 0, 0)",
      [id],
    );
  }
  const x = SqliteExecutor.of(db);
  return { db, leads: new LeadStore(x), fanout: new WebhookFanout(x) };
}

let made = 0;
async function writeLeads(leads: LeadStore, n: number): Promise<void> {
  await Promise.all(
    Array.from({ length: n }, () => {
      const lead = storedLead("ws", ++made, { createdAt: 1_000_000 + made });
      const event = { id: newEventId(lead.createdAt), workspaceId: "ws", type: "lead.created", data: { id: lead.id }, createdAt: lead.createdAt };
      return leads.insert(lead, { event });
    }),
  );
}

const deliveriesPerEvent = (db: DirectoryDb) =>
  db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM webhook_events e JOIN webhook_deliveries d ON d.event_id = e.id GROUP BY e.id, d.endpoint_id").all().map((r) => r.n);

test("a lead's write stores the event and the endpoints that want it, and no delivery", async () => {
  const { db, leads, fanout } = setup(["we_a", "we_b"]);
  await writeLeads(leads, 1);
  expect(db.$client.query("SELECT endpoint_ids AS ids FROM webhook_events").all()).toEqual([{ ids: '["we_a","we_b"]' }]);
  expect(db.$client.query("SELECT count(*) AS n FROM webhook_deliveries").get()).toEqual({ n: 0 });
  expect(fanout.backlog(100)).toEqual({ deliveries: 2, oldestAt: 1_000_000 + made });
});

test("the fan-out makes one pending delivery per endpoint, in batches, and never twice", async () => {
  const { db, leads, fanout } = setup(["we_a", "we_b"]);
  await writeLeads(leads, FANOUT_BATCH + 20);
  expect(await fanout.run()).toBe(FANOUT_BATCH);
  expect(await fanout.run()).toBe(20);
  expect(await fanout.run()).toBe(0);
  const perEvent = deliveriesPerEvent(db);
  expect(perEvent).toHaveLength((FANOUT_BATCH + 20) * 2);
  expect(perEvent.every((n) => n === 1)).toBe(true);
  expect(db.$client.query("SELECT DISTINCT status, attempts FROM webhook_deliveries").all()).toEqual([{ status: "pending", attempts: 0 }]);
  // Due when their event was written, and their give-up window counted from then.
  expect(db.$client.query("SELECT count(*) AS n FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE d.next_attempt_at = e.created_at AND d.created_at = e.created_at").get()).toEqual({
    n: (FANOUT_BATCH + 20) * 2,
  });
  expect(fanout.backlog(100)).toEqual({ deliveries: 0, oldestAt: null });
});

test("a fan-out that fails moves nothing: the next one makes every delivery once", async () => {
  const { db, leads, fanout } = setup(["we_a"]);
  await writeLeads(leads, 3);
  // A delivery that cannot be written (as a full disk would refuse it) fails the whole fan-out.
  db.$client.run("CREATE TRIGGER refuse BEFORE INSERT ON webhook_deliveries BEGIN SELECT raise(ABORT, 'refused'); END");
  await expect(fanout.run()).rejects.toThrow("refused");
  expect(db.$client.query("SELECT count(*) AS n FROM webhook_deliveries").get()).toEqual({ n: 0 });
  db.$client.run("DROP TRIGGER refuse");
  expect(await fanout.run()).toBe(3);
  expect(deliveriesPerEvent(db)).toEqual([1, 1, 1]);
});
