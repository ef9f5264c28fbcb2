import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const REPO = resolve(import.meta.dir, "../..");
const MAIN = join(REPO, "src/main.ts");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `bun src/main.ts …` as an operator would, with only the environment given (plus PATH/HOME). */
export async function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const proc = Bun.spawn([process.execPath, MAIN, ...args], {
    cwd: REPO,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** A temp folder for one test file's databases, removed by the returned cleanup. */
export function tempDir(): { dir: string; path: (name: string) => string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "broker-directory-cli-"));
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
  const proc = Bun.spawn([...(options.prefix ?? []), process.execPath, MAIN, "serve", ...args], {
    cwd: options.cwd ?? REPO,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", ...options.env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  let text = "";
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  while (!/listening on (http:\/\/\S+)/.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`serve exited before listening:\n${text}\n${await new Response(proc.stderr).text()}`);
    text += decoder.decode(value);
  }
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      text += decoder.decode(value);
    }
  })();
  return { proc, url: /listening on (http:\/\/\S+)/.exec(text)![1]!, output: () => text };
}
