/**
 * The app under test as a child process: the compiled executable when dist/broker-directory
 * exists (what an operator runs), else `bun src/main.ts`. Starts it, times exec → first
 * successful /healthz, reads its peak RSS, stops it with SIGTERM.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

export const REPO = join(import.meta.dir, "../..");
const BINARY = join(REPO, "dist/broker-directory");

export interface AppCommand {
  kind: "binary" | "source";
  /** The argv before the CLI command: [binary] or [bun, src/main.ts]. */
  argv: string[];
  describe: string;
}

export function appCommand(forceSource: boolean): AppCommand {
  if (!forceSource && existsSync(BINARY)) {
    const built = statSync(BINARY).mtime.toISOString();
    return { kind: "binary", argv: [BINARY], describe: `dist/broker-directory (built ${built})` };
  }
  return { kind: "source", argv: [process.execPath, join(REPO, "src/main.ts")], describe: `bun ${Bun.version} src/main.ts` };
}

/** Runs one CLI command to completion; throws with its output when it fails. */
export function runCli(app: AppCommand, args: string[], cwd: string, env: Record<string, string> = {}): string {
  const result = Bun.spawnSync([...app.argv, ...args], { cwd, stdout: "pipe", stderr: "pipe", env: { ...cleanEnv(cwd), ...env } });
  if (result.exitCode !== 0) {
    throw new Error(`${args.join(" ")} failed (exit ${result.exitCode}):\n${result.stdout}${result.stderr}`);
  }
  return result.stdout.toString();
}

/** No LOG_LEVEL, PORT or DATABASE_PATH leaking in from the caller's shell. */
function cleanEnv(home: string): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, LANG: "C" };
}

export async function freePort(): Promise<number> {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port!;
  await probe.stop(true);
  return port;
}

export interface RunningProcess {
  proc: Bun.Subprocess;
  url: string;
  /** exec → first 200 from /healthz. */
  startupMs: number;
  /** Where its standard output (the access log) goes. */
  logFile: string;
}

/**
 * Spawns `argv` and polls `/healthz` (or `readyPath`) every 2 ms until it answers 200: the time
 * includes process start, migrations, demo loading, and Bun.serve binding the port.
 */
export async function startProcess(
  argv: string[],
  options: { port: number; cwd: string; logFile: string; timeoutMs?: number; env?: Record<string, string>; readyPath?: string; errorLogFile?: string },
): Promise<RunningProcess> {
  const url = `http://127.0.0.1:${options.port}`;
  const started = performance.now();
  const proc = Bun.spawn(argv, {
    cwd: options.cwd,
    env: { ...cleanEnv(options.cwd), ...options.env },
    stdin: "ignore",
    stdout: Bun.file(options.logFile),
    // Standard error to the terminal, unless asked for in a file (the engine's GC log: runtimeShare.ts).
    stderr: options.errorLogFile ? Bun.file(options.errorLogFile) : "inherit",
  });
  const deadline = started + (options.timeoutMs ?? 60_000);
  while (performance.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`${argv.join(" ")} exited with ${proc.exitCode} before ${options.readyPath ?? "/healthz"} answered (log: ${options.logFile})`);
    try {
      const response = await fetch(url + (options.readyPath ?? "/healthz"));
      if (response.ok) return { proc, url, startupMs: performance.now() - started, logFile: options.logFile };
    } catch {
      // not listening yet
    }
    await Bun.sleep(2);
  }
  proc.kill("SIGKILL");
  throw new Error(`${argv.join(" ")} did not answer ${options.readyPath ?? "/healthz"} within ${options.timeoutMs ?? 60_000} ms`);
}

/** `env`: DATABASE_URL / REDIS_URL for the cluster mode (the caller's shell never leaks in). */
export function startApp(
  app: AppCommand,
  options: { db: string; port: number; cwd: string; logFile: string; demo: boolean; logLevel: string; env?: Record<string, string>; readyPath?: string; timeoutMs?: number },
) {
  const args = ["serve", "--db", options.db, "--port", String(options.port), "--host", "127.0.0.1", "--log-level", options.logLevel];
  if (!options.demo) args.push("--no-demo");
  return startProcess([...app.argv, ...args], options);
}

/** Peak resident set size (VmHWM) of a live process, in bytes. */
export function peakRssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = status.match(/^VmHWM:\s+(\d+) kB/m)?.[1];
  if (!kb) throw new Error(`no VmHWM in /proc/${pid}/status`);
  return Number(kb) * 1024;
}

export async function stopProcess(running: RunningProcess): Promise<void> {
  running.proc.kill("SIGTERM");
  const exited = await Promise.race([running.proc.exited, Bun.sleep(15_000).then(() => "timeout" as const)]);
  if (exited === "timeout") {
    running.proc.kill("SIGKILL");
    await running.proc.exited;
  }
}
