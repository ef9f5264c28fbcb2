/**
 * The floor under a cache miss: a bare Bun.serve that, for each request, does only the SQLite
 * read a miss of scenario (3) or (4) does, with the product's own statements, and answers its
 * JSON. No routing, key, rate limit, log line, cache or validation. What it reaches, as a share
 * of the ceiling, is the most a server that reads SQLite on every miss can reach on this machine
 * at this directory size, whatever else it does or skips.
 *
 *   bun scripts/bench/readFloorServer.ts detail|reviews DB PORT
 *
 * detail: `/…/{slug}` → the broker's row and its offices (BrokerLookups.detail, one snapshot).
 * The product itself no longer reads SQLite for a detail once its search index is loaded (it
 * answers from memory, src/storage/search/detailColumns.ts): this floor is what a server that
 * does read it can reach, the bound issue 30 measures the product against.
 * reviews: `/…/{id}` → its first page of 20 reviews, newest first (ReviewPages.page).
 */
import { DEFAULT_PAGE_SIZE } from "../../src/schemas/pagination.ts";
import { BrokerLookups } from "../../src/storage/stores/brokerLookups.ts";
import { openDatabase } from "../../src/storage/sqlite/database.ts";
import { ReviewPages } from "../../src/storage/stores/reviewPages.ts";

const [kind, dbPath, port] = process.argv.slice(2);
if ((kind !== "detail" && kind !== "reviews") || !dbPath || !port) {
  console.error("usage: readFloorServer.ts detail|reviews DB PORT");
  process.exit(2);
}
const client = openDatabase(dbPath).$client;
const lookups = new BrokerLookups(client);
const pages = new ReviewPages(client);
const headers = { "Content-Type": "application/json; charset=utf-8" };

/** The last path segment, as the scenarios send it (slugs and ids need no decoding). */
const lastSegment = (url: string) => url.slice(url.lastIndexOf("/") + 1);

const read =
  kind === "detail"
    ? (segment: string) => lookups.detail(segment)
    : (segment: string) => ({ data: pages.page(Number(segment), 1, DEFAULT_PAGE_SIZE, "newest", undefined) });

const server = Bun.serve({
  port: Number(port),
  hostname: "127.0.0.1",
  fetch: (request) => {
    // The harness waits for /healthz before it measures.
    if (request.url.endsWith("/healthz")) return new Response("{}", { headers });
    const answer = read(lastSegment(request.url));
    return answer ? new Response(JSON.stringify(answer), { headers }) : new Response("{}", { status: 404, headers });
  },
});
console.log(`${kind} read floor listening on ${server.url}`);
process.on("SIGTERM", () => {
  void server.stop(true);
  process.exit(0);
});
