/**
 * The access log can fail to be written (a full disk, a pipe whose reader died): the server
 * keeps answering. Found during the bench on 2026-11-25: with the disk full, the write of the
 * buffered log lines threw ENOSPC inside a request (and from the flush timer) and the server
 * died. /dev/full fails every write with ENOSPC; a pipe closed at its far end fails with EPIPE.
 */
import { afterAll, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { eventually } from "../support/eventually.ts";
import { freePort } from "../support/freePort.ts";
import { REPO, tempDir } from "./cliHarness.ts";
import { childExit } from "../support/childExit.ts";

const tmp = tempDir();
afterAll(() => tmp.remove());

/**
 * `serve` run by `sh -c SCRIPT` (the command is "$@"), so the shell, not this process, opens
 * where standard output goes; standard error to a file. Resolves once /healthz answers.
 */
async function serveWithStdout(script: string, name: string) {
  const port = await freePort();
  const stderrPath = tmp.path(`${name}.stderr`);
  const command = [process.execPath, join(REPO, "src/main.ts"), "serve", "--db", tmp.path(`${name}.db`), "--port", String(port), "--host", "127.0.0.1", "--no-demo"];
  const proc = Bun.spawn(["sh", "-c", script, "sh", ...command], {
    cwd: REPO,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp" },
    stdin: "ignore",
    stdout: "ignore",
    stderr: Bun.file(stderrPath),
  });
  const url = `http://127.0.0.1:${port}`;
  const answered = await eventually(async () => proc.exitCode !== null || (await fetch(`${url}/healthz`).then((r) => r.ok, () => false)), 30_000);
  if (!answered || proc.exitCode !== null) throw new Error(`serve did not start: ${readFileSync(stderrPath, "utf8")}`);
  return { proc, url, stderr: () => (existsSync(stderrPath) ? readFileSync(stderrPath, "utf8") : "") };
}

/** Enough requests for several 64 KiB flushes of the log buffer, and time for its 50 ms timer. */
async function logALot(url: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let round = 0; round < 20; round++) {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => fetch(`${url}/healthz?pad=${"x".repeat(200)}${round}-${i}`).then((r) => r.status)),
    );
    statuses.push(...answers);
    await Bun.sleep(60);
  }
  return statuses;
}

/** One notice on stderr naming the failure, and every request's line counted as lost on /metrics. */
function expectLossReported(stderr: string, metrics: string, code: string): void {
  const notices = stderr.split("\n").filter((line) => line.includes("log lines lost"));
  expect(notices).toHaveLength(1);
  expect(notices[0]).toContain(code);
  const lost = Number(/^broker_directory_log_lines_lost_total (\d+)$/m.exec(metrics)?.[1]);
  expect(lost).toBeGreaterThanOrEqual(1_000);
}

test("with standard output on a full disk (/dev/full), the server keeps answering and says once on stderr that log lines are lost", async () => {
  const server = await serveWithStdout(`exec "$@" > /dev/full`, "full");
  try {
    const statuses = await logALot(server.url);
    expect(new Set(statuses)).toEqual(new Set([200])); // every request answered
    expect(server.proc.exitCode).toBeNull();
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expectLossReported(server.stderr(), await (await fetch(`${server.url}/metrics`)).text(), "ENOSPC");
  } finally {
    server.proc.kill();
    await childExit(server.proc);
  }
}, 60_000);

test("with standard output a pipe whose reader has gone (EPIPE), the server keeps answering", async () => {
  // `serve | head -c 1`: head reads one byte and exits, as a log shipper that dies would.
  const server = await serveWithStdout(`"$@" | head -c 1 > /dev/null`, "pipe");
  try {
    const statuses = await logALot(server.url);
    expect(new Set(statuses)).toEqual(new Set([200]));
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expectLossReported(server.stderr(), await (await fetch(`${server.url}/metrics`)).text(), "EPIPE");
  } finally {
    // The shell's pipeline outlives a kill of the shell: the server is found by its database.
    killProcessesNaming(tmp.path("pipe.db"));
    server.proc.kill();
    await childExit(server.proc);
  }
}, 60_000);

function killProcessesNaming(text: string): void {
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(text)) process.kill(Number(pid));
    } catch {
      // Gone already, or not ours to read.
    }
  }
}
