/**
 * `bun run soak [--minutes 10] [--brokers 100000] [--connections 32] [--source]`: a soak, not a
 * test. Seeds a fresh database, starts the server (the compiled executable when
 * dist/broker-directory exists, else `bun src/main.ts`), and drives a mixed read + write load
 * on loopback for the given minutes: searches (about 15 % of all requests with a never-seen
 * `q`), broker detail, reviews, the embed list, quote posts and lead posts. Prints, per minute,
 * req/s, p50/p99 latency, non-2xx answers, the server's RssAnon (from /proc/<pid>/status: the
 * heap, not the mapped executable and files) and the bytes its caches hold (from /metrics).
 * Memory is healthy when RssAnon is flat once the caches have filled.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { printUsageIfAsked } from "./bench/usage.ts";
import { appCommand, freePort, runCli, startApp, stopProcess } from "./bench/appProcess.ts";
import { memoryOf } from "./bench/processMemory.ts";
import { publishedBrokers, QUOTE_BODY, searchQueries } from "./bench/scenarios.ts";

const { values } = parseArgs({
  options: {
    minutes: { type: "string", default: "10" },
    brokers: { type: "string", default: "100000" },
    connections: { type: "string", default: "32" },
    source: { type: "boolean", default: false },
    help: { type: "boolean", short: "h" },
  },
  strict: true,
});
await printUsageIfAsked(values.help, import.meta.path);
const minutes = Number(values.minutes);
const connections = Number(values.connections);
if (!(minutes > 0) || !(connections >= 1)) throw new Error("--minutes and --connections must be positive numbers");

const app = appCommand(values.source);
const dir = mkdtempSync(join(tmpdir(), "broker-directory-soak-"));
const db = join(dir, "soak.db");

interface Minute {
  minute: number;
  requests: number;
  latencies: number[];
  failures: number;
}

try {
  console.log(`seeding ${values.brokers} brokers…`);
  runCli(app, ["seed", "--brokers", values.brokers, "--db", db], dir);
  const key = JSON.parse(runCli(app, ["keys", "create", "--workspace", "soak", "--rate-limit", "1000000", "--json", "--db", db], dir)).key as string;
  const brokers = publishedBrokers(db, 5_000);
  const queries = searchQueries();
  const server = await startApp(app, { db, port: await freePort(), cwd: dir, logFile: join(dir, "server.log"), demo: false, logLevel: "warn" });
  console.log(`${app.describe}, pid ${server.proc.pid}, ${connections} connections, ${minutes} min\n`);
  const auth = { Authorization: `Bearer ${key}` };
  const json = { ...auth, "Content-Type": "application/json" };
  const recentQuotes: string[] = [];
  let uniqueCounter = 0;
  const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)]!;

  /** One request of the mix: 45 % searches (a third of them, 15 % of all, with a new q), 15 % detail, 10 % reviews, 10 % embed list, 12 % quotes, 8 % leads. */
  function nextRequest(): { path: string; init: RequestInit } {
    const roll = Math.random() * 100;
    if (roll < 15) return { path: `/api/v1/brokers?q=${encodeURIComponent(`${pick(queries)} z${(uniqueCounter++).toString(36)}`)}`, init: { headers: auth } };
    if (roll < 45) return { path: `/api/v1/brokers?q=${encodeURIComponent(pick(queries))}&page=${1 + Math.floor(Math.random() * 3)}`, init: { headers: auth } };
    if (roll < 60) return { path: `/api/v1/brokers/${encodeURIComponent(pick(brokers).slug)}`, init: { headers: auth } };
    if (roll < 70) return { path: `/api/v1/reviews/${pick(brokers).id}`, init: { headers: auth } };
    if (roll < 80) return { path: `/api/v1/embed/brokers?province=${pick(["ON", "QC", "BC", "AB", "MB", "NS"])}&limit=12`, init: { headers: auth } };
    if (roll < 92) return { path: "/api/v1/embed/quotes", init: { method: "POST", headers: json, body: JSON.stringify(QUOTE_BODY) } };
    const lead = {
      name: "Soak Tester",
      email: `soak${uniqueCounter++}@example.com`,
      phone: "416-555-0199",
      insuranceType: "Auto",
      quoteId: recentQuotes.length > 0 && Math.random() < 0.5 ? pick(recentQuotes) : null,
    };
    return { path: "/api/v1/embed/leads", init: { method: "POST", headers: json, body: JSON.stringify(lead) } };
  }

  const started = performance.now();
  const endAt = started + minutes * 60_000;
  const rows: (Minute & { rssAnonMb: number; cacheMb: number })[] = [];
  let current: Minute = { minute: 1, requests: 0, latencies: [], failures: 0 };

  async function worker() {
    while (performance.now() < endAt) {
      const { path, init } = nextRequest();
      const t = performance.now();
      try {
        const res = await fetch(server.url + path, init);
        const text = await res.text();
        if (res.status === 201 && path === "/api/v1/embed/quotes") {
          recentQuotes.push((JSON.parse(text) as { data: { quoteId: string } }).data.quoteId);
          if (recentQuotes.length > 1_000) recentQuotes.shift();
        }
        if (res.status >= 300) current.failures++;
      } catch {
        current.failures++;
      }
      current.latencies.push(performance.now() - t);
      current.requests++;
    }
  }

  async function cacheBytes(): Promise<number> {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    let total = 0;
    for (const line of text.split("\n")) if (line.startsWith("broker_directory_cache_bytes{")) total += Number(line.split(" ").at(-1));
    return total;
  }

  const reporter = (async () => {
    console.log("| minute | req/s | p50 ms | p99 ms | non-2xx | RssAnon MB | caches MB |");
    console.log("|---:|---:|---:|---:|---:|---:|---:|");
    while (performance.now() < endAt) {
      const nextBoundary = started + current.minute * 60_000;
      await Bun.sleep(Math.max(0, Math.min(nextBoundary, endAt) - performance.now()));
      const done = current;
      current = { minute: done.minute + 1, requests: 0, latencies: [], failures: 0 };
      const sorted = done.latencies.sort((a, b) => a - b);
      const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
      const row = { ...done, rssAnonMb: memoryOf(server.proc.pid).rssAnon / 1024 / 1024, cacheMb: (await cacheBytes()) / 1024 / 1024 };
      rows.push(row);
      console.log(
        `| ${row.minute} | ${Math.round(row.requests / 60).toLocaleString("en-CA")} | ${q(0.5).toFixed(1)} | ${q(0.99).toFixed(1)} | ${row.failures} | ${row.rssAnonMb.toFixed(0)} | ${row.cacheMb.toFixed(1)} |`,
      );
    }
  })();

  await Promise.all([...Array.from({ length: connections }, worker), reporter]);
  const settled = rows.slice(Math.min(2, rows.length - 1));
  if (settled.length >= 2) {
    const first = settled[0]!.rssAnonMb;
    const last = settled.at(-1)!.rssAnonMb;
    console.log(`\nRssAnon after warm-up: ${first.toFixed(0)} MB at minute ${settled[0]!.minute} → ${last.toFixed(0)} MB at minute ${settled.at(-1)!.minute} (${last >= first ? "+" : ""}${(last - first).toFixed(0)} MB)`);
  }
  await stopProcess(server);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
