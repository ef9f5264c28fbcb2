/**
 * The leads export at 100,000 leads: streamed from the database page by page (keyset), at the
 * client's pace, so slow readers leave the server's memory (RssAnon of the child process)
 * about where it was; every lead is in the file; and it costs one rate-limit unit per page of
 * EXPORT_PAGE_LEADS leads read, not one for the lot.
 *
 * Needs seconds: 100,000 leads (~1 KB of notes each, as real inboxes have) are inserted with
 * one SQL statement in the setup, and the file (~130 MB) is downloaded once.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { resolve } from "node:path";
import postgres from "postgres";
import { EXPORT_PAGE_LEADS } from "../../src/router/leads/exportLeads.ts";
import { runCli, startServe, tempDir, type ServedProcess } from "../cli/cliHarness.ts";
import { peakRssAnonMb, rssAnonMb } from "../support/processMemory.ts";
import { bulkLeadsSql } from "../support/bulkLeads.ts";
import { stalledRequest, type StalledReader } from "../support/rawHttp.ts";
import { createTestPgDatabase, onPostgres } from "../support/testDatabase.ts";

const tmp = tempDir();
const path = tmp.path("leads.db");
const LEADS = 100_000;
const RATE_LIMIT = 100_000;
let key: string;
let server: ServedProcess;
const readers: StalledReader[] = [];

beforeAll(async () => {
  // DATABASE_PATH rather than --db: over PostgreSQL the harness adds DATABASE_URL, which --db would override.
  const created = await runCli(["keys", "create", "--workspace", "export", "--rate-limit", String(RATE_LIMIT), "--json"], { DATABASE_PATH: path });
  expect(created.code).toBe(0);
  key = (JSON.parse(created.stdout) as { key: string }).key;
  if (onPostgres) {
    const sql = postgres((await createTestPgDatabase(resolve(path))).url, { max: 1, onnotice: () => {} });
    await sql.unsafe(bulkLeadsSql("export", LEADS, 1_000, "postgres"));
    await sql.end();
  } else {
    const db = new Database(path);
    db.run(bulkLeadsSql("export", LEADS, 1_000, "sqlite"));
    db.close();
  }
  server = await startServe(["--port", "0", "--host", "127.0.0.1", "--no-demo", "--downloads-per-key", "4"], { env: { DATABASE_PATH: path } });
}, 120_000);
afterAll(() => {
  for (const reader of readers) reader.close();
  server?.proc.kill();
  tmp.remove();
});

const remaining = async () => Number((await fetch(`${server.url}/api/v1/leads?limit=1`, { headers: { Authorization: `Bearer ${key}` } })).headers.get("ratelimit-remaining"));

test("the export holds every lead, newest first, and costs one unit per page of leads read", async () => {
  const response = await fetch(`${server.url}/api/v1/leads.csv`, { headers: { Authorization: `Bearer ${key}` } });
  expect(response.status).toBe(200);
  const spentBefore = RATE_LIMIT - Number(response.headers.get("ratelimit-remaining"));
  let rows = 0;
  let first = "";
  let tail = "";
  // A chunk may end between a row's \r and its \n: each chunk is searched with the last
  // character of the one before it, or such a row would go uncounted (as CI once saw).
  let carried = "";
  const decoder = new TextDecoder();
  for await (const chunk of response.body!) {
    const text = decoder.decode(chunk, { stream: true });
    if (first.length < 500) first += text.slice(0, 500);
    const searched = carried + text;
    for (let at = searched.indexOf("\r\n"); at >= 0; at = searched.indexOf("\r\n", at + 2)) rows++;
    carried = searched.endsWith("\r") ? "\r" : "";
    tail = (tail + text).slice(-3_000);
  }
  expect(rows).toBe(LEADS + 1); // the header, then every lead
  expect(first.split("\r\n")[1]).toStartWith(`"ld_bulk_${LEADS}"`);
  expect(tail.split("\r\n").at(-2)).toStartWith('"ld_bulk_1"');
  // Admission paid the first page; each further one a unit: 100 pages, 100 units (+1 for the check below).
  expect(RATE_LIMIT - (await remaining()) - spentBefore).toBe(LEADS / EXPORT_PAGE_LEADS);
}, 60_000);

// After the whole export above: the baseline holds what any export needs (code, SQLite's cache).
test("four clients that start a 100,000-lead export and then read nothing leave the server's memory bounded; a fifth export is refused", async () => {
  const before = rssAnonMb(server.proc.pid);
  const head = ["GET /api/v1/leads.csv HTTP/1.1", `Host: ${new URL(server.url).host}`, `Authorization: Bearer ${key}`].join("\r\n");
  for (let i = 0; i < 4; i++) readers.push(await stalledRequest(server.url, head));
  const peak = await peakRssAnonMb(server.proc.pid, 5_000);
  // Before: the file of up to 20,000 leads was built whole per export (+80 MB each). Now each
  // holds about a megabyte in Bun and a page of leads.
  expect(peak - before).toBeLessThan(60);
  // The key's four download slots are taken (--downloads-per-key 4): a fifth export is refused.
  const fifth = await fetch(`${server.url}/api/v1/leads.csv`, { headers: { Authorization: `Bearer ${key}` } });
  expect(fifth.status).toBe(429);
  expect(fifth.headers.get("retry-after")).toBe("5");
  expect(((await fifth.json()) as { error: string }).error).toContain("4 large downloads in progress");
}, 60_000);
