/**
 * kill -9 in the middle of an import (issue 27): the directory is left as it was at a batch
 * boundary — every broker with its offices, every rating aggregate equal to a recount of the
 * reviews — and running the same file again finishes the job. Files of 20,000 brokers and
 * 24,000 reviews, so the kill lands mid-file: about 10 s in all on a busy 2-core machine.
 */
import { afterAll, expect, test } from "bun:test";
import { join, resolve } from "node:path";
import { REPO, runCli, tempDir } from "./cliHarness.ts";
import { directoryIntegrity, directoryRows } from "../support/directoryRows.ts";
import { writeBrokersCsv, writeReviewsNdjson } from "../support/generatedImport.ts";
import { createTestPgDatabase, onPostgres } from "../support/testDatabase.ts";
import { childExit } from "../support/childExit.ts";

const tmp = tempDir();
afterAll(() => tmp.remove());
const BROKERS = 20_000;

/** Starts `import …` on the test's database and kills it (SIGKILL) once `started` holds. */
async function killMidway(db: string, args: string[], started: () => Promise<boolean>): Promise<void> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", DATABASE_PATH: db };
  if (onPostgres) env.DATABASE_URL = (await createTestPgDatabase(resolve(db))).url;
  const proc = Bun.spawn([process.execPath, join(REPO, "src/main.ts"), "import", ...args, "--quiet"], { cwd: REPO, env, stdout: "ignore", stderr: "ignore" });
  let exited = false;
  void childExit(proc).then(() => (exited = true));
  while (!exited && !(await started())) await Bun.sleep(10);
  proc.kill("SIGKILL");
  expect(await childExit(proc)).not.toBe(0); // killed, not finished
}

const count = async (db: string, table: string) => Number((await directoryRows(db, `SELECT count(*) AS n FROM ${table}`))[0]!.n);

test("killed mid-import, the directory is whole at a batch boundary, and a re-run finishes the job", async () => {
  const db = tmp.path("killed.db");
  expect((await runCli(["migrate"], { DATABASE_PATH: db })).code).toBe(0);
  const brokers = tmp.path("brokers.csv");
  const reviews = tmp.path("reviews.ndjson");
  await writeBrokersCsv(brokers, BROKERS);
  await writeReviewsNdjson(reviews, 2_000, 12);

  await killMidway(db, ["brokers", brokers], async () => (await count(db, "brokers")) > 0);
  const kept = await count(db, "brokers");
  expect(kept).toBeLessThan(BROKERS);
  expect(kept % 500).toBe(0); // whole batches only
  expect(await directoryIntegrity(db)).toEqual({ aggregatesOff: [], withoutOffices: [] });

  const rerun = await runCli(["import", "brokers", brokers, "--json", "--quiet"], { DATABASE_PATH: db });
  expect(rerun.code).toBe(0);
  expect(JSON.parse(rerun.stdout)).toMatchObject({ created: BROKERS - kept, unchanged: kept, updated: 0, failed: 0 });
  expect(await count(db, "brokers")).toBe(BROKERS);
  expect(await count(db, "broker_locations")).toBe(BROKERS + (BROKERS / 10) * 2);

  await killMidway(db, ["reviews", reviews], async () => (await count(db, "reviews")) > 0);
  const reviewed = await count(db, "reviews");
  expect(reviewed).toBeLessThan(24_000);
  expect(await directoryIntegrity(db)).toEqual({ aggregatesOff: [], withoutOffices: [] });
  const again = await runCli(["import", "reviews", reviews, "--json", "--quiet"], { DATABASE_PATH: db });
  expect(JSON.parse(again.stdout)).toMatchObject({ created: 24_000 - reviewed, unchanged: reviewed, failed: 0 });
  expect(await directoryIntegrity(db)).toEqual({ aggregatesOff: [], withoutOffices: [] });
}, 90_000);
