import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { childExit } from "../support/childExit.ts";
import { createTestPgDatabase, onPostgres } from "../support/testDatabase.ts";

export const REPO = resolve(import.meta.dir, "../..");
const MAIN = join(REPO, "src/main.ts");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `bun src/main.ts …` as an operator would, with only the environment given (plus PATH/HOME)
 * and, when `stdin` is given, that text on standard input.
 * Its output goes to files, read once it has exited: under a loaded test run, Bun's reader of a
 * piped child's output intermittently came back empty though the child had written and exited 0
 * (`console-link --json` read as "", twice; the same loss is reported for Bun.spawn pipes in
 * garrytan/gstack#2559, fixed there the same way).
 */
export async function runCli(args: string[], env: Record<string, string> = {}, stdin?: string): Promise<CliResult> {
  const dir = mkdtempSync(join(tmpdir(), "broker-directory-cli-output-"));
  try {
    const proc = Bun.spawn([process.execPath, MAIN, ...args], {
      cwd: REPO,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", ...(await onPostgresToo(args, env)), ...env },
      stdin: stdin === undefined ? "ignore" : new Blob([stdin]),
      stdout: Bun.file(join(dir, "stdout")),
      stderr: Bun.file(join(dir, "stderr")),
    });
    // childExit: Bun sometimes never reports a child's exit (see there); -1 when the code is lost.
    const code = (await childExit(proc)) ?? -1;
    const read = (name: string) => Bun.file(join(dir, name)).text().catch(() => "");
    return { code, stdout: await read("stdout"), stderr: await read("stderr") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A key made by the real CLI (`keys create --json`), as an operator makes one: its id and secret.
 * `env` names the database (DATABASE_PATH, or DATABASE_URL for a cluster's PostgreSQL).
 */
export async function createKeyWithCli(
  env: Record<string, string>,
  { workspace, name = "default", rateLimit }: { workspace: string; name?: string; rateLimit: number },
): Promise<{ id: string; key: string }> {
  const created = await runCli(["keys", "create", "--workspace", workspace, "--name", name, "--rate-limit", String(rateLimit), "--json"], env);
  if (created.code !== 0) throw new Error(`keys create failed (${created.code}): ${created.stderr}`);
  return JSON.parse(created.stdout) as { id: string; key: string };
}

/** Folders made by tempDir(): a database named inside one is the test's own (see onPostgresToo). */
const testFolders = new Set<string>();

/**
 * Over PostgreSQL (TEST_DATABASE=postgres, once the app stores there), the DATABASE_URL a command gets beside its database file: a test
 * names its database by a path in its tempDir() (`--db` or DATABASE_PATH), and that path stands
 * for one PostgreSQL database, made on first use, so every command and server of the test given
 * that path shares it. Paths elsewhere (e.g. a nonexistent folder, to test errors) get nothing.
 */
async function onPostgresToo(args: string[], env: Record<string, string>): Promise<Record<string, string>> {
  if (env.DATABASE_URL || !onPostgres) return {};
  const flag = args.indexOf("--db");
  const path = flag >= 0 ? args[flag + 1] : env.DATABASE_PATH;
  if (!path || !testFolders.has(dirname(resolve(path)))) return {};
  return { DATABASE_URL: (await createTestPgDatabase(resolve(path))).url };
}

/** A temp folder for one test file's databases, removed by the returned cleanup. */
export function tempDir(): { dir: string; path: (name: string) => string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "broker-directory-cli-"));
  testFolders.add(dir);
  return { dir, path: (name) => join(dir, name), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface ServedProcess {
  proc: Bun.Subprocess<"ignore", "pipe", "pipe">;
  url: string;
  /** Everything the server printed on stdout so far (stdout is drained so the log never blocks). */
  output: () => string;
}

/**
 * Starts `serve` as a child process (its flags in `args`) and waits for its "listening on"
 * line. `prefix` runs it through another command (e.g. setpriv); `env` is added to PATH/HOME.
 */
export async function startServe(args: string[], options: { env?: Record<string, string>; prefix?: string[]; cwd?: string } = {}): Promise<ServedProcess> {
  const spawn = async () =>
    Bun.spawn([...(options.prefix ?? []), process.execPath, MAIN, "serve", ...args], {
      cwd: options.cwd ?? REPO,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", ...(await onPostgresToo(args, options.env ?? {})), ...options.env },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
  let proc = await spawn();
  // Bun 1.3 once handed back a subprocess without its stdout pipe late in a long browser-test file
  // (beside the lost exits childExit works around); that child is killed and spawned again.
  for (let retry = 0; retry < 2 && !(proc.stdout && proc.stderr); retry++) {
    proc.kill("SIGKILL");
    proc = await spawn();
  }
  let text = "";
  let errors = "";
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  while (!/listening on (http:\/\/\S+)/.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`serve exited before listening:\n${text}\n${await new Response(proc.stderr).text()}`);
    text += decoder.decode(value);
  }
  // Both pipes are drained for the server's whole life: a pipe nobody reads fills (64 KiB) and the
  // server's next write to it blocks its event loop, which looks like a server that stopped
  // answering. What is kept is bounded (the last 1 MiB of each).
  const drain = async (stream: ReadableStream<Uint8Array>, keep: (chunk: string) => void) => {
    const streamDecoder = new TextDecoder();
    const streamReader = stream.getReader();
    for (;;) {
      const { value, done } = await streamReader.read();
      if (done) return;
      keep(streamDecoder.decode(value, { stream: true }));
    }
  };
  const bounded = (all: string) => (all.length > 1 << 20 ? all.slice(-(1 << 20)) : all);
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      text = bounded(text + decoder.decode(value));
    }
  })();
  void drain(proc.stderr, (chunk) => (errors = bounded(errors + chunk)));
  return { proc, url: /listening on (http:\/\/\S+)/.exec(text)![1]!, output: () => text + errors };
}
