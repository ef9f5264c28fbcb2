/**
 * The load generator: wrk (C, epoll, one thread) from Debian's package. On a 2-core machine a
 * Node.js generator (autocannon) would take a whole core of JavaScript to make its load and
 * still saturate before the server does; wrk drives the same load for a fraction of a core,
 * so the server gets the other core and the figures are the server's, not the generator's.
 *
 * wrk is closed-loop (each connection sends its next request when the previous answer
 * arrives), so its latencies are those of a server kept exactly busy, not of an open arrival
 * rate: compare p99s between scenarios and runs, not with an SLO measured another way.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export interface LoadRequest {
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Append `&pass=<run>-<thread>-<n>` (n counts the times the list was cycled, run is new at each wrk run), so no URL ever repeats. */
  uniquePerPass?: boolean;
  /**
   * A header whose value gets `<run>-<thread>-<n>` appended, n counting this thread's requests and
   * run new at each wrk run: a new value every request (idempotency keys), never one an earlier
   * run (the warm-up, the turn before) sent, which would be answered as a replay.
   */
  uniqueHeader?: string;
}

export interface LoadSettings {
  durationSeconds: number;
  connections: number;
  threads: number;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Answers with a status of 400 or more (wrk counts them; they would flatter the figures). */
  errorStatuses: number;
  /** Connect, read, write errors and timeouts. */
  socketErrors: number;
  bytesRead: number;
  /** CPU time wrk itself used (user + system). */
  loadGeneratorCpuSeconds: number;
}

/** wrk's version line, installing Debian's package first when we may (root with apt-get). */
export function ensureWrk(): string {
  const found = wrkVersion();
  if (found) return found;
  const isRoot = process.getuid?.() === 0;
  if (isRoot && Bun.which("apt-get")) {
    console.log("wrk is missing: installing Debian's package (apt-get install -y wrk)…");
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    const update = Bun.spawnSync(["apt-get", "update", "-qq"], { env, stdout: "ignore", stderr: "inherit" });
    const install = update.exitCode === 0
      ? Bun.spawnSync(["apt-get", "install", "-y", "-qq", "wrk"], { env, stdout: "ignore", stderr: "inherit" })
      : update;
    const installed = install.exitCode === 0 ? wrkVersion() : undefined;
    if (installed) return installed;
  }
  throw new Error("The benchmark needs wrk. Install it with: sudo apt-get install -y wrk (Debian/Ubuntu) or brew install wrk (macOS).");
}

function wrkVersion(): string | undefined {
  if (!Bun.which("wrk")) return undefined;
  // `wrk --version` prints its banner and usage, and exits 1.
  const out = Bun.spawnSync(["wrk", "--version"], { stdout: "pipe", stderr: "pipe" });
  const text = `${out.stdout}${out.stderr}`;
  return text.match(/^wrk .*$/m)?.[0].replace(/ Copyright.*$/, "").trim() ?? "wrk";
}

/** Runs wrk against `baseUrl`, cycling through `requests` (one request is sent as is). */
export async function runWrk(baseUrl: string, requests: LoadRequest[], settings: LoadSettings): Promise<LoadResult> {
  if (requests.length === 0) throw new Error("runWrk needs at least one request");
  const script = join(mkdtempSync(join(tmpdir(), "bench-wrk-")), "scenario.lua");
  writeFileSync(script, luaScript(requests));
  const proc = Bun.spawn(
    [
      "wrk",
      `--threads=${settings.threads}`,
      `--connections=${settings.connections}`,
      `--duration=${settings.durationSeconds}s`,
      "--timeout=10s",
      `--script=${script}`,
      baseUrl,
    ],
    { stdout: "pipe", stderr: "pipe" },
  );
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  rmSync(dirname(script), { recursive: true, force: true });
  const line = stdout.split("\n").find((l) => l.startsWith("BENCH_RESULT "));
  if (code !== 0 || !line) throw new Error(`wrk failed (exit ${code}):\n${stdout}\n${stderr}`);
  const raw = JSON.parse(line.slice("BENCH_RESULT ".length)) as Record<string, number>;
  const seconds = raw.duration_us! / 1e6;
  const ms = (us: number | undefined) => Math.round((us ?? 0) / 10) / 100;
  return {
    requests: raw.requests!,
    seconds,
    requestsPerSecond: Math.round(raw.requests! / seconds),
    p50Ms: ms(raw.p50_us),
    p90Ms: ms(raw.p90_us),
    p99Ms: ms(raw.p99_us),
    maxMs: ms(raw.max_us),
    errorStatuses: raw.status_errors!,
    socketErrors: raw.connect_errors! + raw.read_errors! + raw.write_errors! + raw.timeouts!,
    bytesRead: raw.bytes!,
    loadGeneratorCpuSeconds: cpuSeconds(proc.resourceUsage()),
  };
}

function cpuSeconds(usage: ReturnType<Bun.Subprocess["resourceUsage"]>): number {
  if (!usage) return 0;
  return Number(usage.cpuTime.user + usage.cpuTime.system) / 1e6;
}

const luaString = (s: string) => `"${s.replace(/[\\"]/g, "\\$&").replace(/\n/g, "\\n").replace(/\r/g, "\\r")}"`;

/**
 * The Lua scenario: requests are formatted once in init() and cycled in request(), each
 * thread starting at its own offset; done() prints one JSON line with the percentiles.
 */
function luaScript(requests: LoadRequest[], run = crypto.randomUUID().slice(0, 8)): string {
  const table = requests
    .map((r) => {
      const headers = Object.entries(r.headers).map(([k, v]) => `[${luaString(k)}]=${luaString(v)}`).join(",");
      return `{${luaString(r.method)},${luaString(r.path)},{${headers}},${r.body === undefined ? "nil" : luaString(r.body)},${r.uniquePerPass ? "true" : "false"},${r.uniqueHeader ? luaString(r.uniqueHeader) : "nil"}}`;
    })
    .join(",\n");
  return `local specs = {
${table}
}
local formatted = {}
local next_index = 1
local thread_counter = 0

function setup(thread)
  thread:set("offset", thread_counter)
  thread_counter = thread_counter + 1
end

function init(args)
  for i, spec in ipairs(specs) do
    formatted[i] = wrk.format(spec[1], spec[2], spec[3], spec[4])
  end
  next_index = ((offset or 0) * 7919) % #formatted + 1
end

local pass = 0
local sent = 0

function request()
  local i = next_index
  next_index = next_index % #formatted + 1
  if next_index == 1 then pass = pass + 1 end
  local spec = specs[i]
  if spec[6] then
    sent = sent + 1
    local headers = {}
    for name, value in pairs(spec[3]) do headers[name] = value end
    headers[spec[6]] = spec[3][spec[6]] .. "${run}-" .. (offset or 0) .. "-" .. sent
    return wrk.format(spec[1], spec[2], headers, spec[4])
  end
  if spec[5] then
    return wrk.format(spec[1], spec[2] .. "&pass=${run}-" .. (offset or 0) .. "-" .. pass, spec[3], spec[4])
  end
  return formatted[i]
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH_RESULT {"requests":%d,"duration_us":%d,"bytes":%d,"p50_us":%d,"p90_us":%d,"p99_us":%d,"max_us":%d,' ..
    '"status_errors":%d,"connect_errors":%d,"read_errors":%d,"write_errors":%d,"timeouts":%d}\\n',
    summary.requests, summary.duration, summary.bytes,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    e.status, e.connect, e.read, e.write, e.timeout))
end
`;
}
