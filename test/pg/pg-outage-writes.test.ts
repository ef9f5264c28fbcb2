/**
 * PostgreSQL stopped (DATABASE_URL; issue 25, item 13): `pg_ctl stop` on a real cluster of the
 * test's own, with a real `serve` over it. Writes sent during the outage answer within
 * DATABASE_TIMEOUT_SECONDS (here 2 s, plus slack: a 201 if the database came back in time, else
 * 503 with Retry-After), nothing a client was told 503 is committed after the restart, and the
 * server takes writes again as soon as PostgreSQL is back, without a restart of its own.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { runCli, startServe, type ServedProcess } from "../cli/cliHarness.ts";
import { startOwnPostgres, type OwnPostgres } from "../support/postgres.ts";
import { onPostgres } from "../support/testDatabase.ts";
import { closePostgres, openPostgres } from "../../src/storage/pg/pgDatabase.ts";
import { childExit } from "../support/childExit.ts";

const TIMEOUT_S = 2;
/** An answer later than this is a hang: twice the timeout (a COMMIT already sent may use a second one) and a second of slack for a busy machine. */
const BOUND_MS = 2 * TIMEOUT_S * 1_000 + 1_000;
/** How long the test client waits for an answer at all, like the client (which gave up at 25 s). */
const CLIENT_GIVES_UP_MS = 15_000;

let database: OwnPostgres;
let server: ServedProcess;
let key: string;

beforeAll(async () => {
  database = await startOwnPostgres();
  const created = await runCli(["keys", "create", "--workspace", "outage", "--name", "writer", "--rate-limit", "100000", "--json"], { DATABASE_URL: database.url });
  expect(created.code, created.stderr).toBe(0);
  key = (JSON.parse(created.stdout) as { key: string }).key;
  // The setting through the environment: a server that does not know it still starts (and fails the test).
  server = await startServe(["--port", "0", "--host", "127.0.0.1", "--no-demo"], { env: { DATABASE_URL: database.url, DATABASE_TIMEOUT_SECONDS: String(TIMEOUT_S) } });
}, 60_000);

afterAll(async () => {
  server?.proc.kill("SIGTERM");
  if (server) await childExit(server.proc);
  await database?.stop();
}, 30_000);

interface Answer {
  email: string;
  status: number | "no answer";
  ms: number;
  retryAfter: string | null;
}

async function postLead(email: string): Promise<Answer> {
  const started = performance.now();
  try {
    const res = await fetch(`${server.url}/api/v1/leads`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Marie Tremblay", email, phone: "(416) 555-0199", insuranceType: "Auto" }),
      signal: AbortSignal.timeout(CLIENT_GIVES_UP_MS),
    });
    await res.arrayBuffer();
    return { email, status: res.status, ms: performance.now() - started, retryAfter: res.headers.get("retry-after") };
  } catch {
    return { email, status: "no answer", ms: performance.now() - started, retryAfter: null };
  }
}

/** The e-mails of the leads PostgreSQL holds with this prefix (read on a pool of the test's own). */
async function committed(prefix: string): Promise<string[]> {
  const pg = openPostgres(database.url, { max: 1 });
  try {
    const rows = await pg.$client<{ email: string }[]>`SELECT email FROM leads WHERE email LIKE ${prefix + "%"} ORDER BY email`;
    return rows.map((row) => row.email);
  } finally {
    await closePostgres(pg, 1);
  }
}

/**
 * Stops PostgreSQL for `outageMs`, sending a write every `everyMs` meanwhile (each on its own:
 * a slow answer does not hold back the next), starts it again, and checks the three promises.
 */
async function outage(name: string, outageMs: number, everyMs: number): Promise<void> {
  expect((await postLead(`${name}-before@example.ca`)).status).toBe(201);
  await database.halt();
  const haltedAt = performance.now();
  const answers: Promise<Answer>[] = [];
  for (let n = 0; performance.now() - haltedAt < outageMs; n++) {
    answers.push(postLead(`${name}-during-${String(n).padStart(4, "0")}@example.ca`));
    await Bun.sleep(everyMs);
  }
  await database.resume();
  const resumedAt = performance.now();

  // Back without a restart of the server: a write is taken again within a few seconds.
  let after: Answer;
  do after = await postLead(`${name}-after@example.ca`);
  while (after.status !== 201 && performance.now() - resumedAt < 10_000);
  expect(after.status).toBe(201);
  const recoveredMs = performance.now() - resumedAt;

  const during = await Promise.all(answers);
  // Long enough after the restart for a write queued during the outage to have gone through (today's
  // code committed them 3.6 to 17 s after a restart): what is there now is all there will be.
  await Bun.sleep(Math.max(0, 2 * TIMEOUT_S * 1_000 - (performance.now() - resumedAt)));

  const slow = during.filter((a) => a.status === "no answer" || a.ms > BOUND_MS);
  expect(slow.map((a) => `${a.email}: ${a.status} after ${Math.round(a.ms)} ms`)).toEqual([]);
  for (const a of during) {
    expect([201, 503] as Answer["status"][]).toContain(a.status);
    if (a.status === 503) expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
  }
  // Written exactly when the client was told so: nothing refused (or abandoned) committed late.
  const told201 = during.filter((a) => a.status === 201).map((a) => a.email);
  expect(await committed(`${name}-during-`)).toEqual(told201);
  // Most of the outage's writes found the database down (only those in the last seconds could wait for it).
  expect(during.filter((a) => a.status === 503).length).toBeGreaterThanOrEqual(during.length / 2);
  console.log(
    `${name}: ${during.length} writes during ${Math.round(outageMs / 1000)} s down, slowest answer ${Math.round(Math.max(...during.map((a) => a.ms)))} ms, ` +
      `${told201.length} committed (each answered 201), writes taken again ${Math.round(recoveredMs)} ms after the restart`,
  );
  expect(server.output()).not.toMatch(/marie|@example\.ca/i);
}

test("PostgreSQL stopped for 10 s: every write answers within the bound, nothing is committed late, writes resume after the restart", async () => {
  await outage("ten-seconds", 10_000, 500);
}, 60_000);

/**
 * A long outage, because the defect grew with the outage's length (postgres.js's reconnect delay
 * rose with each failed attempt, up to 20 s; after 5.5 minutes 10 of 12 abandoned writes
 * committed late). The delay is now capped after four failures (reconnectDelaySeconds), so a
 * minute already reaches the state five minutes do, after over a hundred failed reconnects (one
 * every 0.5 s): the
 * PostgreSQL run of CI (scripts/test-on-postgres.ts sets TEST_DATABASE=postgres) stops it for 60 s,
 * not in the SQLite run, whose pg tests run against a throwaway cluster too. The full five
 * minutes this test was written for, on demand: TEST_LONG_OUTAGE_SECONDS=300.
 */
const LONG_OUTAGE_SECONDS = Number(process.env.TEST_LONG_OUTAGE_SECONDS ?? 60);
test.if(onPostgres || process.env.TEST_LONG_OUTAGE_SECONDS !== undefined)(
  `PostgreSQL stopped for ${LONG_OUTAGE_SECONDS} s: the same, with the pool as it is after over a hundred failed reconnects`,
  async () => {
    await outage("long", LONG_OUTAGE_SECONDS * 1_000, 5_000);
  },
  (LONG_OUTAGE_SECONDS + 120) * 1_000,
);
