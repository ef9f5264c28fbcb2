/**
 * What the quote store's SQLite specialisation saves (src/storage/stores/quoteStore.ts,
 * SqliteQuoteStatements): 20,000 quote inserts, in turns of 200 so that group commit pays one
 * COMMIT per turn as under load, then 20,000 finds, through the store's prepared statements and
 * through the executor path PostgreSQL takes (drizzle renders each statement, SQLite compiles
 * it), on a SQLite file in WAL mode; rounds alternate, medians printed. Seconds to run:
 *
 *   bun scripts/bench/quoteStoreCost.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeDatabase, openDatabase } from "../../src/storage/sqlite/database.ts";
import { migrate } from "../../src/storage/sqlite/migrate.ts";
import { SqliteExecutor } from "../../src/storage/sqlite/sqliteExecutor.ts";
import { QuoteStore, type StoredQuote } from "../../src/storage/stores/quoteStore.ts";
import { plainExecutor } from "../../test/support/plainExecutor.ts";
import { median } from "./median.ts";

const N = 20_000;
const TURN = 200;
const ROUNDS = 5;

const dir = mkdtempSync(join(tmpdir(), "quote-cost-"));
const db = openDatabase(join(dir, "bench.db"));
migrate(db);
db.$client.run("INSERT INTO workspaces (id, name, created_at) VALUES ('ws', 'Workspace', 0)");
const x = SqliteExecutor.of(db);
const stores = { prepared: new QuoteStore(x), executor: new QuoteStore(plainExecutor(x)) };

const offer = (slug: string, monthlyCents: number) => ({ carrierSlug: slug, carrierName: `Carrier ${slug}`, annualCents: monthlyCents * 12, monthlyCents, coverage: "Standard", deductible: 500 });
let made = 0;
function quote(): StoredQuote {
  const now = Date.now();
  return {
    id: `qt_${Bun.randomUUIDv7("hex", now).replaceAll("-", "")}${made++}`,
    workspaceId: "ws",
    insuranceType: "Auto",
    line: "auto",
    province: "ON",
    postalCode: "M5V 3L9",
    details: { driverAge: 35, cleanRecord: true, vehicleYear: 2019 },
    source: "rest",
    createdAt: now,
    expiresAt: now + 86_400_000,
    offers: ["a", "b", "c", "d", "e", "f", "g", "h"].map((slug, i) => offer(slug, 1_000 + i * 100)),
  };
}

const perOp: Record<string, number[]> = {};
const record = (name: string, startedAt: number) => (perOp[name] ??= []).push(((performance.now() - startedAt) * 1000) / N);
for (let round = 0; round < ROUNDS; round++) {
  for (const [path, store] of Object.entries(stores)) {
    const ids: string[] = [];
    let startedAt = performance.now();
    for (let done = 0; done < N; done += TURN) {
      const turn = Array.from({ length: TURN }, quote);
      ids.push(...turn.map((q) => q.id));
      await Promise.all(turn.map((q) => store.insert(q)));
    }
    record(`insert, ${path}`, startedAt);
    startedAt = performance.now();
    for (const id of ids) if (!(await store.find(id, "ws"))) throw new Error(`${id} not found`);
    record(`find, ${path}`, startedAt);
  }
}
for (const [name, values] of Object.entries(perOp)) {
  console.log(`${name.padEnd(20)} ${median(values).toFixed(1).padStart(6)} µs  (rounds: ${values.map((v) => v.toFixed(1)).join(", ")})`);
}
closeDatabase(db);
rmSync(dir, { recursive: true, force: true });
