/**
 * `bun scripts/bench/hostileUrls.ts [--requests 20000] [--brokers 1000] [--padding 15000] [--source]`:
 * a measurement, not a test. Starts the server on a seeded database and sends distinct hostile
 * URLs (an ignored parameter of `--padding` characters, a unique `q`, a rotated Host), then
 * prints the server's RSS and RssAnon before and after. (Past 8 KiB of path and query the
 * padded requests are refused with a 414; use --padding 7000 to send them to the cache.) The
 * memory-bounds test counts the caches; this shows what memory does.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { appCommand, freePort, runCli, startApp, stopProcess } from "./appProcess.ts";
import { memoryOf } from "./processMemory.ts";

const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "20000" },
    brokers: { type: "string", default: "1000" },
    concurrency: { type: "string", default: "16" },
    padding: { type: "string", default: "15000" },
    source: { type: "boolean", default: false },
  },
  strict: true,
});
const total = Number(values.requests);
const app = appCommand(values.source);
const dir = mkdtempSync(join(tmpdir(), "broker-directory-hostile-"));
const db = join(dir, "hostile.db");
try {
  runCli(app, ["seed", "--brokers", values.brokers, "--db", db], dir);
  const key = JSON.parse(runCli(app, ["keys", "create", "--workspace", "hostile", "--rate-limit", "1000000", "--json", "--db", db], dir)).key as string;
  const server = await startApp(app, { db, port: await freePort(), cwd: dir, logFile: join(dir, "server.log"), demo: false, logLevel: "warn" });
  try {
    const pid = server.proc.pid;
    const before = memoryOf(pid);
    const padding = "x".repeat(Number(values.padding));
    const statuses = new Map<number, number>();
    let next = 0;
    const started = performance.now();
    async function worker() {
      while (next < total) {
        const i = next++;
        const headers: Record<string, string> = { Authorization: `Bearer ${key}` };
        let path: string;
        if (i % 3 === 0) path = `/api/v1/brokers?province=ON&x=${i}${padding}`;
        else if (i % 3 === 1) path = `/api/v1/brokers?q=${i}zz`;
        else {
          path = "/api/v1/embed/brokers?province=QC";
          headers.Host = `h${i}.example:8080`;
        }
        const response = await fetch(server.url + path, { headers });
        await response.arrayBuffer();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      }
    }
    await Promise.all(Array.from({ length: Number(values.concurrency) }, worker));
    Bun.gc?.(true);
    await Bun.sleep(1_000);
    const after = memoryOf(pid);
    const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
    console.log(`${total} hostile URLs in ${((performance.now() - started) / 1000).toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
    console.log(`RSS     ${mb(before.rss)} → ${mb(after.rss)} (+${mb(after.rss - before.rss)})`);
    console.log(`RssAnon ${mb(before.rssAnon)} → ${mb(after.rssAnon)} (+${mb(after.rssAnon - before.rssAnon)})`);
  } finally {
    await stopProcess(server);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
