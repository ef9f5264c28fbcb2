/**
 * One bench scenario made ready to run by hand against a server from source, for the tools
 * beside `bun run bench` (profile.ts, runtimeShare.ts): a copy of the seeded database (seeded
 * once per size into `seedCache`), a key with room for any load, the scenario's requests, and
 * for (15) a webhook endpoint in this process. `dispose()` removes the database copy (as large
 * as the seeded one: 360 MB at 100,000 brokers, which filled this machine's disk when runs in a
 * row kept theirs) and the receiver; the working directory stays when something in it is kept.
 *
 * @example
 * const ready = prepareScenario({ scenarioId: "list", brokers: "1000", seedCache: "/tmp/seeds", prefix: "profile" });
 * try { … sourceServerRun({ db: ready.db, dir: ready.work, scenario: ready.scenario, seconds: 5, env: ready.env }) … }
 * finally { await ready.dispose({ keepWork: false }); }
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { appCommand, runCli } from "./appProcess.ts";
import { buildScenarios, HOOKED_SCENARIOS, SCENARIO_IDS, type Scenario, type ScenarioId } from "./scenarios.ts";
import { ensureWrk } from "./wrk.ts";

export interface PreparedScenario {
  work: string;
  db: string;
  /** The key every request of the scenario sends. */
  key: string;
  scenario: Scenario;
  /** The server's environment: the bench's webhook settings, and the engine and memory settings of this shell. */
  env: Record<string, string>;
  dispose(options: { keepWork: boolean }): Promise<void>;
}

/** Settings a by-hand run passes on from the shell to the server (the engine's options, the memory target, the log level). */
const PASSED_ON = (name: string) => name.startsWith("BUN_JSC_") || name === "MEMORY_TARGET_MB" || name === "LOG_LEVEL";

export function prepareScenario(options: { scenarioId: string; brokers: string; seedCache: string; prefix: string }): PreparedScenario {
  const scenarioId = options.scenarioId as ScenarioId;
  if (!SCENARIO_IDS.includes(scenarioId)) throw new Error(`--scenario: one of ${SCENARIO_IDS.join(", ")}`);
  ensureWrk();
  const app = appCommand(true);
  const work = mkdtempSync(join(tmpdir(), `broker-directory-${options.prefix}-`));
  mkdirSync(options.seedCache, { recursive: true });
  const seeded = join(options.seedCache, `seed-${options.brokers}.db`);
  if (!existsSync(seeded)) runCli(app, ["seed", "--db", seeded, "--brokers", options.brokers], work);
  const db = join(work, "bench.db");
  copyFileSync(seeded, db);
  const created = runCli(app, ["keys", "create", "--db", db, "--workspace", options.prefix, "--rate-limit", "1000000", "--json"], work);
  const key = (JSON.parse(created) as { key: string }).key;
  const keys = Object.fromEntries(SCENARIO_IDS.map((id) => [id, key])) as Record<ScenarioId, string>;
  const scenario = buildScenarios(db, keys).find((s) => s.id === scenarioId)!;
  // As bench.ts does for (15): an endpoint wanting lead.created, answered at once in this process.
  const receiver = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(null, { status: 204 }) });
  // Delivery off, as in the bench: (15) measures what a lead costs with its outbox rows, not the sending.
  const hooksEnv = { WEBHOOKS_ALLOW_HTTP_LOOPBACK: "true", WEBHOOKS_DELIVERY: "false" };
  if (HOOKED_SCENARIOS.includes(scenarioId)) {
    runCli(app, ["webhooks", "create", "--workspace", options.prefix, "--url", `http://127.0.0.1:${receiver.port}/hook`, "--events", "lead.created", "--db", db], work, hooksEnv);
  }
  const shellEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => PASSED_ON(name))) as Record<string, string>;
  return {
    work,
    db,
    key,
    scenario,
    env: { ...hooksEnv, ...shellEnv },
    async dispose({ keepWork }) {
      await receiver.stop(true);
      for (const file of [db, `${db}-wal`, `${db}-shm`]) rmSync(file, { force: true });
      if (!keepWork) rmSync(work, { recursive: true, force: true });
    },
  };
}
