import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./freePort.ts";

export interface Backend {
  host: string;
  port: number;
}

/**
 * The HAProxy configuration for N instances (the manual's scaling-out page, "HAProxy", shows it):
 * round robin over the instances whose /readyz says they can serve — 200 also when PostgreSQL
 * is down and they serve reads from their replica (their writes then answer our JSON 503 with
 * Retry-After) — checked every second, taken out after 2 failed checks (/readyz answers 503 from
 * the first moment of SIGTERM's drain) and put back after 2 good ones: one check slowed by a
 * pause of the instance does not drop it (`timeout check 3s`, above /readyz's own 2 s bound on
 * its PostgreSQL probe). A request that could not reach an instance (connection refused) is sent
 * again, to another instance (redispatch); one that may have reached an instance (closed without
 * an answer, or 503) is sent again only when repeating it is safe: a read, or a write with an
 * Idempotency-Key, which the server answers once (issue 28: a POST without one was stored twice
 * when its instance died after committing it). So a rolling restart or a crashed instance fails
 * no read and no keyed write. When no instance is up, HAProxy's own 503 is JSON with Retry-After too. No
 * `on-marked-down shutdown-sessions`: a draining instance still finishes what it was sent.
 */
export function haproxyConfig(options: { bind: string; statsBind?: string; backends: Backend[] }): string {
  return `global
  maxconn 4096

defaults
  mode http
  timeout connect 2s
  timeout client 30s
  timeout server 30s
  timeout check 3s
  # Another instance when one fails; retry-on needs the request buffered (small bodies are).
  option redispatch
  retries 3
  retry-on conn-failure empty-response 503
  option http-buffer-request
  # No instance up: the same JSON and Retry-After as an instance's own 503.
  http-error status 503 content-type application/json string '${NO_INSTANCE_BODY}' hdr Retry-After 5

frontend directory
  bind ${options.bind}
  # A write without an Idempotency-Key that may have reached an instance is never sent again:
  # it is retried only if its connection failed before it was sent (conn-failure).
  http-request disable-l7-retry if !{ method GET HEAD OPTIONS } !{ req.hdr(idempotency-key) -m found }
  default_backend instances

backend instances
  balance roundrobin
  # HTTP/1.1 with a Host: the server answers a request without one with 400.
  option httpchk
  http-check send meth GET uri /readyz ver HTTP/1.1 hdr Host localhost
  http-check expect status 200
  default-server inter 1s fall 2 rise 2 maxconn 200
${options.backends.map((b, i) => `  server i${i + 1} ${b.host}:${b.port} check`).join("\n")}
${options.statsBind ? `\nfrontend stats\n  bind ${options.statsBind}\n  stats enable\n  stats uri /stats\n` : ""}`;
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
      await proc.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
