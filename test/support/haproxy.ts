import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./freePort.ts";
import { childExit } from "./childExit.ts";

export interface Backend {
  host: string;
  port: number;
}

/**
 * The HAProxy configuration for N instances: the manual's own (scaling-out page, "HAProxy", the
 * one source: what the page shows is what the cluster test and the bench run), with its `bind`
 * and its example `server` lines replaced by these, a global connection cap and, when asked, a
 * stats page. In short: round robin over the instances whose /readyz says they can serve — 200
 * also when PostgreSQL is down and they serve reads from their replica (their writes then answer
 * our JSON 503 with Retry-After) — checked every second, taken out after 2 failed checks and put
 * back after 2 good ones. A request that could not reach an instance (connection refused) is
 * sent again, to another instance (redispatch); one that may have reached an instance (closed
 * without an answer, or 503) is sent again only when repeating it is safe: a read, or a write
 * with an Idempotency-Key, which the server answers once (issue 28: a POST without one was
 * stored twice when its instance died after committing it). When no instance is up, HAProxy's
 * own 503 is JSON with Retry-After too.
 */
export function haproxyConfig(options: { bind: string; statsBind?: string; backends: Backend[] }): string {
  const lines = manualConfig().split("\n").filter((line) => !/^\s*server\s/.test(line));
  const config = lines.map((line) => (/^\s*bind\s/.test(line) ? `  bind ${options.bind}` : line)).join("\n").trimEnd();
  const servers = options.backends.map((b, i) => `  server i${i + 1} ${b.host}:${b.port} check`).join("\n");
  const stats = options.statsBind ? `\n\nfrontend stats\n  bind ${options.statsBind}\n  stats enable\n  stats uri /stats` : "";
  return `global\n  maxconn 4096\n\n${config}\n${servers}${stats}\n`;
}

/** The ```haproxy block of the manual's scaling-out page. */
export function manualConfig(): string {
  const page = readFileSync(join(import.meta.dir, "../../src/adapters/docs/manual/scaling-out.md"), "utf8");
  const open = page.indexOf("```haproxy\n");
  const close = page.indexOf("```", open + 1);
  if (open < 0 || close < 0) throw new Error("the scaling-out page has no ```haproxy block");
  return page.slice(open + "```haproxy\n".length, close);
}

/** HAProxy's answer when no instance is up (the manual's configuration carries the same line). */
export const NO_INSTANCE_BODY = '{"error":"No instance of the service is available right now. Nothing was saved; retry later."}';

export interface RunningHaproxy {
  url: string;
  /** Waits until HAProxy's own health checks count `up` instances up (and the rest down). */
  waitForUp(up: number, withinMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A real HAProxy (Debian's package) in front of `backends`, on a free loopback port, with its
 * config in a temp dir; run in the foreground so it stops with the test.
 * `scripts/ensure-haproxy.sh` (run before `npm test`) installs it when missing.
 */
export async function startHaproxy(backends: Backend[]): Promise<RunningHaproxy> {
  const dir = mkdtempSync(join(tmpdir(), "broker-directory-haproxy-"));
  const [port, statsPort] = [await freePort(), await freePort()];
  const config = join(dir, "haproxy.cfg");
  writeFileSync(config, haproxyConfig({ bind: `127.0.0.1:${port}`, statsBind: `127.0.0.1:${statsPort}`, backends }));
  const binary = Bun.which("haproxy") ?? "/usr/sbin/haproxy";
  const check = Bun.spawnSync([binary, "-c", "-q", "-f", config], { stdout: "pipe", stderr: "pipe" });
  if (check.exitCode !== 0) throw new Error(`haproxy refused its config:\n${check.stdout}${check.stderr}`);
  const proc = Bun.spawn([binary, "-db", "-f", config], { stdout: "ignore", stderr: "pipe" });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (await fetch(`http://127.0.0.1:${statsPort}/stats`).then(() => true, () => false)) break;
    if (i > 100 || proc.exitCode !== null) {
      proc.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`haproxy did not start:\n${await new Response(proc.stderr).text()}`);
    }
    await Bun.sleep(50);
  }
  return {
    url,
    async waitForUp(up, withinMs = 10_000) {
      const until = Date.now() + withinMs;
      for (;;) {
        const csv = await (await fetch(`http://127.0.0.1:${statsPort}/stats;csv`)).text();
        const states = csv.split("\n").filter((line) => line.startsWith("instances,i")).map((line) => line.split(",")[17]);
        if (states.filter((s) => s === "UP").length === up && states.length - up === states.filter((s) => s?.startsWith("DOWN")).length) return;
        if (Date.now() > until) throw new Error(`HAProxy sees ${states.join(", ")}; expected ${up} up`);
        await Bun.sleep(100);
      }
    },
    async stop() {
      proc.kill("SIGTERM");
      await childExit(proc);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
