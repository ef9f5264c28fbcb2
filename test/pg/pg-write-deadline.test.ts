/**
 * The deadline of a request's statement (DATABASE_TIMEOUT_SECONDS; here 500 ms) holds when
 * PostgreSQL is up but the write cannot run: waiting for a connection, or for a lock. Either way
 * the write fails at its deadline as "unavailable" (503 + Retry-After) and is not committed when
 * it could run after all. (A stopped server is test/pg/pg-outage-writes.test.ts.)
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createLogger } from "../../src/log.ts";
import { openPostgres, type PgDb } from "../../src/storage/pg/pgDatabase.ts";
import { createPgStores, type PgStores, type RunningPgStores } from "../../src/storage/pg/pgStores.ts";
import { storedLead } from "../support/storedLead.ts";
import { storageFaultOf } from "../../src/storage/storageFault.ts";
import { createPgTestDatabase, type PgTestDatabase } from "../support/pgTestDatabase.ts";

const TIMEOUT_MS = 500;
/** Slack for a busy machine: the answer comes at the deadline, not when the blocker ends (1.5-2 s later). */
const LATE_MS = TIMEOUT_MS + 700;

let db: PgTestDatabase;
/** One connection only, so a test can take it away. */
let pool: PgDb;
let running: RunningPgStores;
let stores: PgStores;
let ws: string;

beforeAll(async () => {
  db = await createPgTestDatabase();
  pool = openPostgres(db.url, { max: 1 });
  running = await createPgStores(pool, createLogger("silent"), undefined, TIMEOUT_MS);
  stores = running.stores;
  ws = (await stores.keys.ensureWorkspace("deadline", 1)).id;
});
afterAll(async () => {
  await running.stop();
  await pool.$client.end({ timeout: 1 });
  await db.drop();
});

const lead = (n: number) => storedLead(ws, n);

/** The failure of `work` (undefined if it succeeded) and how long it took. */
async function outcome(work: unknown): Promise<{ error: unknown; ms: number }> {
  const started = performance.now();
  const error = await Promise.resolve(work).then(
    () => undefined,
    (e: unknown) => e,
  );
  return { error, ms: performance.now() - started };
}

const rows = async (table: "leads" | "lead_events", id: string) =>
  (await db.pg.$client<{ n: number }[]>`SELECT count(*)::int AS n FROM ${db.pg.$client(table)} WHERE ${db.pg.$client(table === "leads" ? "id" : "lead_id")} = ${id}`)[0]!.n;

test("a write still waiting for a connection at its deadline fails then, and rolls back when the connection frees up", async () => {
  // The pool's only connection is busy for 2 s: the write waits behind it.
  const busy = pool.$client`SELECT pg_sleep(2)`.then(() => {});
  await Bun.sleep(100);
  const { error, ms } = await outcome(stores.leads.insert(lead(1)));
  expect(storageFaultOf(error)).toBe("unavailable");
  expect(ms).toBeLessThan(LATE_MS);
  await busy;
  await Bun.sleep(300); // the queued transaction runs now: it must roll back, not commit
  expect(await rows("leads", lead(1).id)).toBe(0);
  // And the pool is fine afterwards.
  await stores.leads.insert(lead(2));
  expect(await rows("leads", lead(2).id)).toBe(1);
}, 10_000);

test("a write blocked by a lock is ended by the server at its deadline (statement_timeout), and nothing of it stays", async () => {
  await stores.leads.insert(lead(3));
  // Another session holds the lead's row lock for 1.5 s.
  const locked = Promise.withResolvers<void>();
  const holder = db.pg.$client.begin(async (tx) => {
    await tx`SELECT id FROM leads WHERE id = ${lead(3).id} FOR UPDATE`;
    locked.resolve();
    await Bun.sleep(1_500);
  });
  await locked.promise;
  const { error, ms } = await outcome(stores.leads.appendEvent({ leadId: lead(3).id, status: "contacted", note: null, actor: "key_x", createdAt: 2_000 }));
  expect(storageFaultOf(error)).toBe("unavailable");
  expect(ms).toBeLessThan(LATE_MS);
  await holder;
  await Bun.sleep(100);
  expect(await rows("lead_events", lead(3).id)).toBe(0);
  expect((await stores.leads.find(lead(3).id, ws))?.status).toBe("new");
}, 10_000);
