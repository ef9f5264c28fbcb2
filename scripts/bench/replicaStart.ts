/**
 * `bun run bench --replica-start`: how long an instance over PostgreSQL takes from spawn to
 * `/readyz` 200 when its directory replica must be loaded whole (cold: an empty REPLICA_DIR)
 * against when it reuses the replica a stopped instance left and catches up from the journal
 * (after a clean SIGTERM, and after `kill -9`). Before each restart a few brokers are changed in
 * PostgreSQL (plain UPDATEs: PostgreSQL's triggers journal them, as for any writer), so the
 * catch-up has work; each reused start is checked to serve the change it caught up on.
 *
 * Seeding PostgreSQL at 100,000 brokers takes minutes: with --seed-cache, the seeded database is
 * kept as a pg_dump beside the SQLite seeds and restored on later runs.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import postgres from "postgres";
import { postgresBinDir, startPostgres } from "../../test/support/postgres.ts";
import { freePort, runCli, startApp, stopProcess, type AppCommand, type RunningProcess } from "./appProcess.ts";
import { machineInfo, type BenchRecord } from "./report.ts";

/** Brokers changed in PostgreSQL before each restart: the journal a reused replica catches up on. */
const CHANGED_PER_RESTART = 10;

/** One start, timed from spawn to the first /readyz 200, with what its log says it spent. */
export interface ReplicaStartMeasure {
  readyMs: number;
  /** Whether the log says the replica was reused (else it was loaded whole). */
  reused: boolean;
  /** The replica's own step, from its log line: the whole load, or the catch-up from the journal. */
  replicaMs: number | null;
  /** The in-memory search and discovery indexes, built before listening (log lines "… index built"). */
  searchIndexMs: number | null;
  discoveryIndexMs: number | null;
}

export interface ReplicaStartRound {
  cold: ReplicaStartMeasure;
  /** After a clean stop (SIGTERM) and CHANGED_PER_RESTART brokers changed. */
  reused: ReplicaStartMeasure;
  /** After kill -9 and CHANGED_PER_RESTART more brokers changed. */
  reusedAfterCrash: ReplicaStartMeasure;
}

export interface ReplicaStartRecord {
  date: string;
  machine: BenchRecord["machine"];
  bun: string;
  server: BenchRecord["server"];
  settings: { brokers: number; rounds: number; changedPerRestart: number };
  /** How PostgreSQL got its directory: `seed --database-url`, or a restore of a cached dump. */
  seed: { how: "seed" | "cached dump"; seconds: number; reviews: number };
  rounds: ReplicaStartRound[];
  /** Medians over the rounds, spawn → /readyz 200. */
  medianReadyMs: { cold: number; reused: number; reusedAfterCrash: number };
}

export async function benchReplicaStart(
  app: AppCommand,
  options: { brokers: number; rounds: number; dir: string; logLevel: string; seedCache?: string },
): Promise<ReplicaStartRecord> {
  const { dir, brokers } = options;
  mkdirSync(dir, { recursive: true });
  const pg = await startPostgres();
  const admin = postgres(pg.url, { max: 1, onnotice: () => {} });
  const name = `bd_replica_start_${process.pid}_${brokers}`;
  await admin.unsafe(`CREATE DATABASE "${name}"`);
  const databaseUrl = Object.assign(new URL(pg.url), { pathname: `/${name}` }).toString();
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const running: RunningProcess[] = [];
  try {
    console.log(`replica start: seeding ${brokers.toLocaleString("en-CA")} brokers into PostgreSQL…`);
    const seed = await seedPostgres(app, databaseUrl, brokers, dir, options.seedCache);
    const [counted] = await sql<{ reviews: number }[]>`SELECT count(*)::int AS reviews FROM reviews`;
    const reviews = counted!.reviews;
    console.log(`replica start: PostgreSQL holds ${brokers.toLocaleString("en-CA")} brokers (${seed.how}, ${seed.seconds.toFixed(1)} s)`);
    const key = JSON.parse(runCli(app, ["keys", "create", "--workspace", "bench", "--name", "replica-start", "--json"], dir, { DATABASE_URL: databaseUrl })).key as string;
    const ids = [...(await sql<{ id: number; slug: string }[]>`SELECT id, slug FROM brokers WHERE published ORDER BY id`)];

    const rounds: ReplicaStartRound[] = [];
    let changes = 0;
    for (let round = 1; round <= options.rounds; round++) {
      const replicaDir = join(dir, `replicas-${round}`);
      rmSync(replicaDir, { recursive: true, force: true });
      let starts = 0;
      const start = async () => {
        const logFile = join(dir, `round-${round}-start-${++starts}.log`);
        const env = { DATABASE_URL: databaseUrl, REPLICA_DIR: replicaDir };
        const server = await startApp(app, { db: join(dir, "unused.db"), port: await freePort(), cwd: dir, logFile, demo: false, logLevel: options.logLevel, env, readyPath: "/readyz", timeoutMs: 300_000 });
        running.push(server);
        return { server, measure: await measureOf(server) };
      };
      /** Renames a few brokers in PostgreSQL; resolves to one of them, to check the next start serves it. */
      const change = async () => {
        const picked = Array.from({ length: CHANGED_PER_RESTART }, () => ids[(changes++ * 7919) % ids.length]!);
        for (const broker of picked) await sql`UPDATE brokers SET name = ${`Renamed For Replica Start ${changes}`} WHERE id = ${broker.id}`;
        return { slug: picked.at(-1)!.slug, name: `Renamed For Replica Start ${changes}` };
      };

      const cold = await start();
      await stopProcess(cold.server);
      const cleanChange = await change();
      const reused = await start();
      await expectServed(reused.server, key, cleanChange);
      reused.server.proc.kill("SIGKILL");
      await reused.server.proc.exited;
      const crashChange = await change();
      const afterCrash = await start();
      await expectServed(afterCrash.server, key, crashChange);
      await stopProcess(afterCrash.server);
      running.length = 0;
      for (const [label, m] of [["cold", cold.measure], ["reused after a clean stop", reused.measure], ["reused after kill -9", afterCrash.measure]] as const) {
        console.log(`replica start, round ${round}, ${label}: ready in ${m.readyMs.toFixed(0)} ms (replica ${m.replicaMs ?? "?"} ms, search index ${m.searchIndexMs ?? "?"} ms, discovery index ${m.discoveryIndexMs ?? "?"} ms)`);
      }
      if (cold.measure.reused || !reused.measure.reused || !afterCrash.measure.reused) {
        throw new Error(`round ${round}: expected a cold load, then two reuses; the logs say ${[cold, reused, afterCrash].map((s) => (s.measure.reused ? "reused" : "loaded")).join(", ")} (logs in ${dir})`);
      }
      rounds.push({ cold: cold.measure, reused: reused.measure, reusedAfterCrash: afterCrash.measure });
    }
    const median = (pick: (r: ReplicaStartRound) => ReplicaStartMeasure) => medianOf(rounds.map((r) => pick(r).readyMs));
    return {
      date: new Date().toISOString(),
      machine: machineInfo(),
      bun: Bun.version,
      server: { kind: app.kind, describe: app.describe, logLevel: options.logLevel },
      settings: { brokers, rounds: options.rounds, changedPerRestart: CHANGED_PER_RESTART },
      seed: { ...seed, reviews },
      rounds,
      medianReadyMs: { cold: median((r) => r.cold), reused: median((r) => r.reused), reusedAfterCrash: median((r) => r.reusedAfterCrash) },
    };
  } finally {
    for (const server of running) if (server.proc.exitCode === null) await stopProcess(server);
    await sql.end();
    await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
    await pg.stop();
  }
}

/** `seed --database-url`, or pg_restore of the dump a previous run with the same --seed-cache kept. */
async function seedPostgres(app: AppCommand, databaseUrl: string, brokers: number, dir: string, cacheDir: string | undefined) {
  const started = performance.now();
  const seconds = () => Math.round((performance.now() - started) / 100) / 10;
  const bin = postgresBinDir();
  const dump = cacheDir ? join(cacheDir, `seed-pg-${brokers}.dump`) : undefined;
  if (dump && existsSync(dump)) {
    run([join(bin, "pg_restore"), "--no-owner", "--dbname", databaseUrl, dump]);
    return { how: "cached dump" as const, seconds: seconds() };
  }
  runCli(app, ["seed", "--brokers", String(brokers)], dir, { DATABASE_URL: databaseUrl });
  const result = { how: "seed" as const, seconds: seconds() };
  if (dump) {
    mkdirSync(cacheDir!, { recursive: true });
    run([join(bin, "pg_dump"), "--format", "custom", "--file", dump, databaseUrl]);
  }
  return result;
}

/** The start's time to ready, and what its log says it spent (read once the log is flushed). */
async function measureOf(server: RunningProcess): Promise<ReplicaStartMeasure> {
  await Bun.sleep(100);
  const lines = readFileSync(server.logFile, "utf8")
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { msg?: string; ms?: number });
  const msOf = (msg: string) => lines.find((l) => l.msg === msg)?.ms ?? null;
  const caughtUp = msOf("directory replica reused: caught up from the journal");
  return {
    readyMs: Math.round(server.startupMs),
    reused: caughtUp !== null,
    replicaMs: caughtUp ?? msOf("directory replica loaded from PostgreSQL"),
    searchIndexMs: msOf("search index built"),
    discoveryIndexMs: msOf("discovery index built"),
  };
}

/** The renamed broker answers with its new name: the reused replica caught up before serving. */
async function expectServed(server: RunningProcess, key: string, expected: { slug: string; name: string }): Promise<void> {
  const response = await fetch(`${server.url}/api/v1/brokers/${expected.slug}`, { headers: { Authorization: `Bearer ${key}` } });
  const body = (await response.json()) as { name?: string; data?: { name?: string } };
  const name = body.data?.name ?? body.name;
  if (response.status !== 200 || name !== expected.name) throw new Error(`a reused replica served ${response.status} ${JSON.stringify(name)} for a broker renamed ${JSON.stringify(expected.name)} before the start`);
}

function run(command: string[]): void {
  const result = Bun.spawnSync(command, { stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`${command.join(" ")} failed (exit ${result.exitCode}):\n${result.stdout}\n${result.stderr}`);
}

function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
}
