import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { LINK_LIFETIME_MS, SESSION_IDLE_MS } from "../../src/auth/consoleSecrets.ts";
import { createLogger } from "../../src/log.ts";
import { createPgStores, type PgStores, type RunningPgStores } from "../../src/storage/pg/pgStores.ts";
import { QUOTE_PURGE_GRACE_MS } from "../../src/storage/stores/quotePurge.ts";
import type { StoredLead } from "../../src/storage/stores/leadStore.ts";
import { storedLead } from "../support/storedLead.ts";
import type { StoredQuote } from "../../src/storage/stores/quoteStore.ts";
import { createPgTestDatabase, type PgTestDatabase } from "../support/pgTestDatabase.ts";

let db: PgTestDatabase;
let running: RunningPgStores;
let stores: PgStores;

beforeAll(async () => {
  db = await createPgTestDatabase();
  running = await createPgStores(db.pg, createLogger("silent"));
  stores = running.stores;
});
afterAll(async () => {
  await running.stop();
  await db.drop();
});

const workspace = async (name: string) => (await stores.keys.ensureWorkspace(name, 1)).id;

const lead = storedLead;

function quote(workspaceId: string, id: string, expiresAt: number): StoredQuote {
  return {
    id,
    workspaceId,
    insuranceType: "auto",
    line: "auto",
    province: "ON",
    postalCode: "M5V 2T6",
    details: { driverAge: 40, nested: { list: [1, 2] } },
    source: "rest",
    createdAt: expiresAt - 1_000,
    expiresAt,
    offers: [
      { carrierSlug: "b", carrierName: "B Mutual", annualCents: 120_000, monthlyCents: 10_000, coverage: "standard", deductible: 500 },
      { carrierSlug: "a", carrierName: "A Général", annualCents: 130_000, monthlyCents: 10_834, coverage: "enhanced", deductible: 1_000 },
    ],
  };
}

describe("LeadStore over PostgreSQL", () => {
  test("lists a workspace's leads newest first, inserts within one millisecond in insertion order, paged with the total", async () => {
    const ws = await workspace("leads-order");
    const other = await workspace("leads-other");
    for (const n of [1, 2, 3]) await stores.leads.insert(lead(ws, n, { createdAt: 5_000 })); // one millisecond
    await stores.leads.insert(lead(ws, 4, { createdAt: 4_000 }));
    await stores.leads.insert(lead(other, 9));
    const page1 = await stores.leads.list(ws, 1, 2);
    expect(page1.total).toBe(4);
    expect(page1.items.map((l) => l.id)).toEqual([`ld_${ws}_3`, `ld_${ws}_2`]);
    expect((await stores.leads.list(ws, 2, 2)).items.map((l) => l.id)).toEqual([`ld_${ws}_1`, `ld_${ws}_4`]);
    expect(await stores.leads.list(ws, 9, 2)).toEqual({ items: [], total: 4 });
    expect(page1.items[0]).toEqual(lead(ws, 3, { createdAt: 5_000 })); // the SQLite row shape: no seq
  });

  test("search filters by status, type and source, and finds text in name or e-mail ignoring case and accents", async () => {
    const ws = await workspace("leads-search");
    await stores.leads.insert(lead(ws, 1, { name: "Élise Tremblay", createdAt: 1 }));
    await stores.leads.insert(lead(ws, 2, { email: "ELISE@example.com", insuranceType: "home", createdAt: 2 }));
    await stores.leads.insert(lead(ws, 3, { source: "embed", status: "contacted", createdAt: 3 }));
    const ids = (r: { items: StoredLead[] }) => r.items.map((l) => l.id.split("_").at(-1));
    expect(ids(await stores.leads.search(ws, { search: "elise" }, 1, 10))).toEqual(["2", "1"]);
    expect(ids(await stores.leads.search(ws, { search: "elise", insuranceType: "home" }, 1, 10))).toEqual(["2"]);
    expect(ids(await stores.leads.search(ws, { status: "contacted" }, 1, 10))).toEqual(["3"]);
    expect(ids(await stores.leads.search(ws, { source: "embed" }, 1, 10))).toEqual(["3"]);
    expect(await stores.leads.search(ws, { search: "nobody" }, 1, 10)).toEqual({ items: [], total: 0 });
    // Export pages: two leads read per page, the search applied to those, the cursor carried on.
    const first = await stores.leads.exportPage(ws, { search: "elise" }, undefined, 2);
    expect(ids(first)).toEqual(["2"]);
    const second = await stores.leads.exportPage(ws, { search: "elise" }, first.next, 2);
    expect(ids(second)).toEqual(["1"]);
    expect(second.next).toBeUndefined();
    expect(ids(await stores.leads.exportPage(ws, {}, undefined, 10))).toEqual(["3", "2", "1"]);
  });

  test("find stays in its workspace; appendEvent keeps the history oldest first and makes the status current", async () => {
    const ws = await workspace("leads-events");
    const other = await workspace("leads-events-other");
    await stores.leads.insert(lead(ws, 1));
    expect(await stores.leads.find(`ld_${ws}_1`, other)).toBeUndefined();
    await stores.leads.appendEvent({ leadId: `ld_${ws}_1`, status: "contacted", note: "called", actor: "console", createdAt: 2_000 });
    await stores.leads.appendEvent({ leadId: `ld_${ws}_1`, status: "won", note: null, actor: "key_x", createdAt: 3_000 });
    expect((await stores.leads.find(`ld_${ws}_1`, ws))?.status).toBe("won");
    expect((await stores.leads.events(`ld_${ws}_1`)).map((e) => [e.status, e.note, e.actor])).toEqual([
      ["contacted", "called", "console"],
      ["won", null, "key_x"],
    ]);
    // A history entry for a lead that does not exist is refused, and changes nothing.
    await expect(stores.leads.appendEvent({ leadId: "ld_missing", status: "won", note: null, actor: "x", createdAt: 1 })).rejects.toThrow();
  });
});

describe("QuoteStore and QuotePurge over PostgreSQL", () => {
  test("insert then find gives the quote back with its details (JSON) and offers in order; another workspace finds nothing", async () => {
    const ws = await workspace("quotes");
    const stored = quote(ws, "qt_one", 10_000_000);
    await stores.quotes.insert(stored);
    expect(await stores.quotes.find("qt_one", ws)).toEqual(stored);
    expect(await stores.quotes.find("qt_one", await workspace("quotes-other"))).toBeUndefined();
    expect(await stores.quotes.find("qt_none", ws)).toBeUndefined();
  });

  test("a quote whose offers are not whole cents is refused, and nothing is stored", async () => {
    const ws = await workspace("quotes-atomic");
    const broken = quote(ws, "qt_broken", 10_000_000);
    broken.offers = [broken.offers[0]!, broken.offers[0]!].map((o, i) => ({ ...o, deductible: i === 1 ? Number.NaN : o.deductible }));
    await expect(stores.quotes.insert(broken)).rejects.toThrow();
    const [row] = await db.pg.$client<{ n: number }[]>`SELECT count(*)::integer AS n FROM quotes WHERE id = 'qt_broken'`;
    expect(row!.n).toBe(0);
  });

  test("the purge deletes quotes past expiry plus the grace, keeps those a lead refers to, and stops", async () => {
    const ws = await workspace("purge");
    const now = 100 * QUOTE_PURGE_GRACE_MS;
    const old = now - QUOTE_PURGE_GRACE_MS - 1;
    await stores.quotes.insert(quote(ws, "qt_old", old));
    await stores.quotes.insert(quote(ws, "qt_old_kept", old));
    await stores.quotes.insert(quote(ws, "qt_recent", now - 1));
    await stores.leads.insert(lead(ws, 1, { quoteId: "qt_old_kept" }));
    const first = await stores.quotePurge.batch(now, 0);
    expect(first.next).toBeUndefined();
    expect(first.deleted).toBeGreaterThanOrEqual(1);
    expect(await stores.quotes.find("qt_old", ws)).toBeUndefined();
    expect(await stores.quotes.find("qt_old_kept", ws)).toBeDefined();
    expect(await stores.quotes.find("qt_recent", ws)).toBeDefined();
    // Its offers are in its row: gone with it.
    const [rows] = await db.pg.$client<{ n: number }[]>`SELECT count(*)::integer AS n FROM quotes WHERE id = 'qt_old'`;
    expect(rows!.n).toBe(0);
    expect(await stores.quotePurge.batch(now, 0)).toEqual({ deleted: 0, next: undefined });
  });
});

describe("console links, sessions and usage", () => {
  test("a link opens once, before it expires; an unknown token opens nothing", async () => {
    const ws = await workspace("links");
    const { token, expiresAt } = await stores.consoleLinks.create(ws, 1_000);
    expect(expiresAt).toBe(1_000 + LINK_LIFETIME_MS);
    const twice = await Promise.all([stores.consoleLinks.redeem(token, 2_000), stores.consoleLinks.redeem(token, 2_000)]);
    expect(twice.filter((w) => w === ws)).toHaveLength(1);
    expect(twice.filter((w) => w === undefined)).toHaveLength(1);
    const late = await stores.consoleLinks.create(ws, 1_000);
    expect(await stores.consoleLinks.redeem(late.token, late.expiresAt)).toBeUndefined();
    expect(await stores.consoleLinks.redeem("not-a-token", 2_000)).toBeUndefined();
  });

  test("sessions resolve until idle, ended one by one or all at once", async () => {
    const ws = await workspace("sessions");
    const a = await stores.consoleSessions.start(ws, 1_000);
    const b = await stores.consoleSessions.start(ws, 1_000);
    expect(await stores.consoleSessions.resolve(a, 2_000)).toMatchObject({ workspaceId: ws, endsAt: 2_000 + SESSION_IDLE_MS });
    expect(await stores.consoleSessions.resolve(b, 1_000 + SESSION_IDLE_MS)).toBeUndefined(); // idle too long
    await stores.consoleSessions.end(a, 3_000);
    expect(await stores.consoleSessions.resolve(a, 3_001)).toBeUndefined();
    const c = await stores.consoleSessions.start(ws, 4_000);
    expect(await stores.consoleSessions.endAll(ws, 5_000)).toBe(2); // b and c were live
    expect(await stores.consoleSessions.resolve(c, 5_001)).toBeUndefined();
    expect(await stores.consoleSessions.resolve("unknown", 5_001)).toBeUndefined();
  });

  test("usage adds up per key and day (two flushes, and the same pair twice in one), read back from a day on", async () => {
    const { record } = await stores.keys.create({ workspace: "usage" }, 1_000);
    const other = await stores.keys.create({ workspace: "usage-other" }, 1_000);
    await stores.keyUsage.add([
      { keyId: record.id, day: "2026-01-01", requests: 3, refused: 1 },
      { keyId: record.id, day: "2026-01-01", requests: 2, refused: 0 },
      { keyId: other.record.id, day: "2026-01-02", requests: 9, refused: 9 },
    ]);
    await stores.keyUsage.add([{ keyId: record.id, day: "2026-01-02", requests: 1, refused: 0 }]);
    await stores.keyUsage.add([]);
    expect(await stores.keyUsage.since(record.workspaceId, "2026-01-01")).toEqual([
      { keyId: record.id, day: "2026-01-01", requests: 5, refused: 1 },
      { keyId: record.id, day: "2026-01-02", requests: 1, refused: 0 },
    ]);
    expect(await stores.keyUsage.since(record.workspaceId, "2026-01-02")).toHaveLength(1);
  });
});
