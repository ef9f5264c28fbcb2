import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { freePort } from "./freePort.ts";
import { childExit } from "./childExit.ts";

export interface RunningPostgres {
  /** A superuser URL (trust auth) on 127.0.0.1, database `postgres`. */
  url: string;
  stop(): Promise<void>;
}

/** A cluster of this run's own, which a test may stop and start again (an outage). */
export interface OwnPostgres extends RunningPostgres {
  /** Stops the server as an operator would (`pg_ctl stop -m fast`): clients are cut, connections refused. */
  halt(): Promise<void>;
  /** Starts it again on the same port, with the same data. */
  resume(): Promise<void>;
}

/**
 * A throwaway PostgreSQL cluster (Debian's package) for a test run: `initdb` in a temp dir with
 * trust auth, fsync off (nothing in it must survive a power cut), listening on a free loopback
 * port with its unix socket in that dir, removed on stop. PostgreSQL refuses to run as root, so
 * as root the cluster is owned and run by the `postgres` user the package creates.
 * With `TEST_PG_URL` set, that server is used instead and stop() leaves it alone.
 * `scripts/ensure-postgres.sh` installs the package when it is missing.
 */
export async function startPostgres(): Promise<RunningPostgres> {
  const external = process.env.TEST_PG_URL;
  if (external) return { url: external, stop: async () => {} };
  return startOwnPostgres();
}

/** startPostgres, but always a new cluster (never TEST_PG_URL's server): one a test may halt. */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  const bin = postgresBinDir();
  const dir = mkdtempSync(join(tmpdir(), "broker-directory-pg-"));
  const data = join(dir, "data");
  const asRoot = userInfo().uid === 0;
  // runuser: the server's files and processes belong to `postgres`, never to root.
  const prefix = asRoot ? ["runuser", "-u", "postgres", "--"] : [];
  if (asRoot) chownSync(dir, idOfPostgres("-u"), idOfPostgres("-g"));
  run([...prefix, join(bin, "initdb"), "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync", "--no-instructions"]);
  const port = await freePort();
  const settings = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses=127.0.0.1",
    // Speed over durability: the cluster lives for one run.
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
    // Each test server holds a pool and a LISTEN connection; a whole suite opens many at once.
    "-c max_connections=300",
  ].join(" ");
  const start = [...prefix, join(bin, "pg_ctl"), "-D", data, "-l", join(dir, "server.log"), "-w", "-t", "60", "-o", settings, "start"];
  run(start);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    halt: () => runAsync([...prefix, join(bin, "pg_ctl"), "-D", data, "-m", "fast", "-w", "-t", "20", "stop"]),
    resume: () => runAsync(start),
    async stop() {
      // Fast: roll back what is open and disconnect clients; immediate if that hangs.
      const stopped = Bun.spawnSync([...prefix, join(bin, "pg_ctl"), "-D", data, "-m", "fast", "-w", "-t", "20", "stop"], { stdout: "ignore", stderr: "pipe" });
      if (stopped.exitCode !== 0) Bun.spawnSync([...prefix, join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "stop"], { stdout: "ignore", stderr: "ignore" });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Where initdb and pg_ctl live: `pg_config --bindir`, else Debian's newest /usr/lib/postgresql/N/bin. */
export function postgresBinDir(): string {
  const fromConfig = Bun.spawnSync(["pg_config", "--bindir"], { stdout: "pipe", stderr: "ignore" });
  const configured = fromConfig.exitCode === 0 ? fromConfig.stdout.toString().trim() : "";
  if (configured && existsSync(join(configured, "initdb"))) return configured;
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, "bin", "initdb"))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error("PostgreSQL's server binaries are missing: run scripts/ensure-postgres.sh (apt-get install -y postgresql).");
  return join(root, newest, "bin");
}

function run(command: string[]): void {
  const result = Bun.spawnSync(command, { stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`${command.join(" ")} failed (exit ${result.exitCode}):\n${result.stdout}\n${result.stderr}`);
}

/** run(), without holding the test's event loop (requests in flight are being timed meanwhile). */
async function runAsync(command: string[]): Promise<void> {
  const proc = Bun.spawn(command, { stdout: "pipe", stderr: "pipe" });
  if ((await childExit(proc)) !== 0) throw new Error(`${command.join(" ")} failed (exit ${proc.exitCode}):\n${await new Response(proc.stderr).text()}`);
}

function idOfPostgres(flag: "-u" | "-g"): number {
  const result = Bun.spawnSync(["id", flag, "postgres"], { stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error("There is no `postgres` user to run PostgreSQL as (Debian's postgresql package creates it).");
  return Number(result.stdout.toString().trim());
}
