/**
 * `import brokers|reviews FILE` (issue 27 section 1, and the audit trail of section 3), run as
 * an operator runs it: the real CLI in its own process, on a real database (SQLite, or with
 * TEST_DATABASE=postgres the test's PostgreSQL database), read back with SQL.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO, runCli, tempDir } from "./cliHarness.ts";
import { directoryIntegrity, directoryRows, directoryVersion } from "../support/directoryRows.ts";
import { BROKERS_CSV_HEADER } from "../support/generatedImport.ts";

const tmp = tempDir();
afterAll(() => tmp.remove());

const BROKERS = join(REPO, "db/examples/brokers.csv");
const REVIEWS = join(REPO, "db/examples/reviews.ndjson");

/** The example files' two refused rows, as the summary words them. */
const EXAMPLE_ERRORS = [
  { line: 24, field: "postalCode", message: '"M5V 3L9" is in Ontario, the row says QC' },
  { line: 26, field: "teamSize", message: 'must be one of 1-10, 11-50, 51-200, 201-500, 500+ (got "10-50")' },
];

let databases = 0;
/** A fresh, migrated, empty directory (no demo data: `migrate` alone). */
async function emptyDirectory(): Promise<string> {
  const path = tmp.path(`import-${++databases}.db`);
  expect((await cli(["migrate"], path)).code).toBe(0);
  return path;
}

/**
 * The CLI on the test's database, named by DATABASE_PATH rather than --db: with
 * TEST_DATABASE=postgres the harness then gives the command the test's PostgreSQL database
 * (DATABASE_URL), which --db would override.
 */
function cli(args: string[], db: string, stdin?: string) {
  return runCli(args, { DATABASE_PATH: db }, stdin);
}

async function importJson(args: string[], db: string, stdin?: string) {
  const result = await cli(["import", ...args, "--json", "--quiet"], db, stdin);
  if (result.stdout === "") throw new Error(`import printed nothing (exit ${result.code}): ${result.stderr}`);
  return { code: result.code, stderr: result.stderr, summary: JSON.parse(result.stdout) as Record<string, unknown> };
}

function csvFile(name: string, rows: string[]): string {
  const path = tmp.path(name);
  writeFileSync(path, [BROKERS_CSV_HEADER, ...rows].join("\n"));
  return path;
}

describe("import", () => {
  test("the example files: 18 brokers in, the two bad rows refused with their line, column and message; reviews attach by externalId and slug; aggregates equal a recount", async () => {
    const db = await emptyDirectory();
    const brokers = await importJson(["brokers", BROKERS], db);
    expect(brokers.code).toBe(1); // some rows refused: the others are stored
    expect(brokers.summary).toEqual({ created: 18, updated: 0, unchanged: 0, unpublished: 0, failed: 2, errors: EXAMPLE_ERRORS, errorsOmitted: 0 });
    expect(brokers.stderr).toBe("Error: 2 record(s) refused; every other row was stored.\n");

    const reviews = await importJson(["reviews", REVIEWS], db);
    expect(reviews).toMatchObject({ code: 0, summary: { created: 15, updated: 0, unchanged: 0, failed: 0, errors: [] } });

    const [maple] = await directoryRows(db, "SELECT id, review_count, average_rating, external_id FROM brokers WHERE slug = 'maple-leaf-insurance-brokers'");
    // RV-20001 (5) and RV-20002 (4) by externalId, RV-20014 (4) by slug.
    expect(maple).toMatchObject({ review_count: 3, average_rating: 4.33, external_id: "CRM-1001" });
    expect(await directoryRows(db, `SELECT count(*) AS n FROM broker_locations WHERE broker_id = ${maple!.id}`)).toEqual([{ n: 3 }]);
    expect(await directoryIntegrity(db)).toEqual({ aggregatesOff: [], withoutOffices: [] });
  }, 30_000);

  test("a second run of the same files reports every row unchanged and writes nothing: no updatedAt, no directory version moves", async () => {
    const db = await emptyDirectory();
    await importJson(["brokers", BROKERS], db);
    await importJson(["reviews", REVIEWS], db);
    const version = await directoryVersion(db);
    const updated = await directoryRows(db, "SELECT max(updated_at) AS at FROM brokers");
    const audited = await directoryRows(db, "SELECT count(*) AS n FROM directory_audit");

    expect((await importJson(["brokers", BROKERS], db)).summary).toMatchObject({ created: 0, updated: 0, unchanged: 18, failed: 2 });
    expect((await importJson(["reviews", REVIEWS], db)).summary).toMatchObject({ created: 0, updated: 0, unchanged: 15, failed: 0 });
    expect(await directoryVersion(db)).toBe(version);
    expect(await directoryRows(db, "SELECT max(updated_at) AS at FROM brokers")).toEqual(updated);
    expect(await directoryRows(db, "SELECT count(*) AS n FROM directory_audit")).toEqual(audited);
  }, 30_000);

  test("--dry-run checks and counts every row and writes nothing", async () => {
    const db = await emptyDirectory();
    const version = await directoryVersion(db);
    const dry = await importJson(["brokers", BROKERS, "--dry-run"], db);
    expect(dry.summary).toMatchObject({ created: 18, failed: 2, errors: EXAMPLE_ERRORS });
    expect(await directoryRows(db, "SELECT count(*) AS n FROM brokers")).toEqual([{ n: 0 }]);
    expect(await directoryRows(db, "SELECT count(*) AS n FROM directory_audit")).toEqual([{ n: 0 }]);
    expect(await directoryVersion(db)).toBe(version);
    // Reviews of brokers the directory lacks are refused, by the column that names the broker.
    const reviews = await importJson(["reviews", REVIEWS, "--dry-run"], db);
    expect(reviews.summary).toMatchObject({ created: 0, failed: 15 });
    expect((reviews.summary.errors as unknown[])[0]).toEqual({ line: 1, field: "brokerExternalId", message: 'no broker has the externalId "CRM-1001": import the brokers first, or check the id' });
  }, 30_000);

  test("an edited broker is updated in place, its offices replaced, and the audit trail holds the fields before and after", async () => {
    const db = await emptyDirectory();
    const first = csvFile("edit-1.csv", [
      "CRM-1,Edit Me Insurance,edit-me,,416-555-0100,,First text.,1990,1-10,false,true,,Auto;Home,,English,1 King Street West,Toronto,ON,M5H 3T4,,,",
    ]);
    expect((await importJson(["brokers", first], db)).summary).toMatchObject({ created: 1 });
    const second = csvFile("edit-2.csv", [
      "CRM-1,Edit Me Insurance,edit-me,,416-555-0100,,Second text.,1990,1-10,true,true,,Auto;Home;Life,,English,1 King Street West,Toronto,ON,M5H 3T4,true,,",
      "CRM-1,,,,,,,,,,,,,,,1250 boulevard René-Lévesque Ouest,Montréal,QC,H3B 4W8,false,,",
    ]);
    const version = await directoryVersion(db);
    expect((await importJson(["brokers", second], db)).summary).toMatchObject({ created: 0, updated: 1, unchanged: 0 });
    expect(await directoryVersion(db)).toBeGreaterThan(version);

    const [broker] = await directoryRows(db, "SELECT id, description FROM brokers WHERE external_id = 'CRM-1'");
    expect(broker!.description).toBe("Second text.");
    expect(await directoryRows(db, `SELECT count(*) AS n FROM broker_locations WHERE broker_id = ${broker!.id}`)).toEqual([{ n: 2 }]);
    expect(await directoryRows(db, `SELECT count(*) AS n FROM broker_lines WHERE broker_id = ${broker!.id}`)).toEqual([{ n: 3 }]);
    const audit = await directoryRows(db, `SELECT actor, action, before, after, reason FROM directory_audit WHERE broker_id = ${broker!.id} ORDER BY id`);
    expect(audit.map((entry) => [entry.actor, entry.action, entry.reason])).toEqual([
      ["cli", "created", "import brokers edit-1.csv"],
      ["cli", "updated", "import brokers edit-2.csv"],
    ]);
    const json = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value) as Record<string, unknown>;
    expect(audit[0]!.before).toBeNull();
    expect(json(audit[0]!.after)).toMatchObject({ externalId: "CRM-1", description: "First text.", locations: [{ city: "Toronto" }] });
    const { locations: beforeOffices, ...before } = json(audit[1]!.before);
    const { locations: afterOffices, ...after } = json(audit[1]!.after);
    expect(before).toEqual({ description: "First text.", isVerified: false, insuranceLines: ["Auto", "Home"] });
    expect(after).toEqual({ description: "Second text.", isVerified: true, insuranceLines: ["Auto", "Home", "Life"] });
    expect([(beforeOffices as unknown[]).length, (afterOffices as unknown[]).length]).toEqual([1, 2]);
  }, 30_000);

  test("--sync unpublishes (never deletes) a broker whose externalId the file no longer lists, and leaves brokers without one alone", async () => {
    const db = await emptyDirectory();
    const rows = {
      kept: "CRM-A,Kept Insurance,kept-insurance,,,,,,,,,,Auto,,,1 King Street West,Toronto,ON,M5H 3T4,,,",
      dropped: "CRM-B,Dropped Insurance,dropped-insurance,,,,,,,,,,Auto,,,1 King Street West,Toronto,ON,M5H 3T4,,,",
      keyless: ",Keyless Insurance,keyless-insurance,,,,,,,,,,Auto,,,1 King Street West,Toronto,ON,M5H 3T4,,,",
    };
    await importJson(["brokers", csvFile("sync-1.csv", Object.values(rows))], db);
    const synced = await importJson(["brokers", csvFile("sync-2.csv", [rows.kept]), "--sync"], db);
    expect(synced.summary).toMatchObject({ created: 0, unchanged: 1, unpublished: 1, failed: 0 });
    expect(await directoryRows(db, "SELECT slug FROM brokers WHERE published = true ORDER BY slug")).toEqual([{ slug: "kept-insurance" }, { slug: "keyless-insurance" }]);
    expect(await directoryRows(db, "SELECT count(*) AS n FROM brokers")).toEqual([{ n: 3 }]);
    const [entry] = await directoryRows(db, "SELECT a.action, a.reason FROM directory_audit a JOIN brokers b ON b.id = a.broker_id WHERE b.slug = 'dropped-insurance' AND a.action = 'unpublished'");
    expect(entry).toEqual({ action: "unpublished", reason: "import brokers sync-2.csv (--sync: not in the file)" });
    // The file lists it again: published again, by the file's `published` (true unless it says otherwise).
    const back = await importJson(["brokers", csvFile("sync-3.csv", [rows.kept, rows.dropped]), "--sync"], db);
    expect(back.summary).toMatchObject({ updated: 1, unchanged: 1, unpublished: 0 });
  }, 30_000);

  test("an edited review is updated in place, a review moved to another broker leaves it, and every aggregate equals a recount", async () => {
    const db = await emptyDirectory();
    await importJson(["brokers", BROKERS], db);
    const versionBefore = await directoryVersion(db);
    await importJson(["reviews", REVIEWS], db);
    // New reviews move the directory version (once a batch), so every cache keyed on it is dropped.
    expect(await directoryVersion(db)).toBeGreaterThan(versionBefore);
    const lines = (await Bun.file(REVIEWS).text()).trim().split("\n");
    const edited = lines.map((line) => {
      const review = JSON.parse(line);
      if (review.externalId === "RV-20001") review.rating = 1; // Maple Leaf: 5 becomes 1
      if (review.externalId === "RV-20002") review.brokerExternalId = "CRM-1004"; // from Maple Leaf to Pacific Shores
      return JSON.stringify(review);
    });
    const file = tmp.path("reviews-edited.ndjson");
    writeFileSync(file, edited.join("\n"));
    expect((await importJson(["reviews", file], db)).summary).toMatchObject({ created: 0, updated: 2, unchanged: 13, failed: 0 });
    const counts = await directoryRows(db, "SELECT slug, review_count, average_rating FROM brokers WHERE external_id IN ('CRM-1001', 'CRM-1004') ORDER BY slug");
    expect(counts).toEqual([
      { slug: "maple-leaf-insurance-brokers", review_count: 2, average_rating: 2.5 },
      { slug: "pacific-shores-insurance-vancouver", review_count: 2, average_rating: 4 },
    ]);
    expect(await directoryIntegrity(db)).toEqual({ aggregatesOff: [], withoutOffices: [] });
    // The batches' switch off the per-row review triggers (migration 0018) never outlives its transaction.
    expect(await directoryRows(db, "SELECT key FROM meta WHERE key = 'bulk_load'")).toEqual([]);
    const [moved] = await directoryRows(db, "SELECT a.before, a.after FROM directory_audit a WHERE a.review_id IS NOT NULL AND a.action = 'updated' ORDER BY a.id DESC LIMIT 1");
    const json = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value);
    expect(Object.keys(json(moved!.after))).toEqual(["brokerId"]);
  }, 30_000);

  test("--sync unpublishes nothing when a row of the file was refused, and says why", async () => {
    const db = await emptyDirectory();
    await importJson(["brokers", BROKERS], db);
    const result = await cli(["import", "brokers", BROKERS, "--sync", "--quiet"], db);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("0 unpublished, 2 failed.");
    expect(result.stdout).toContain("--sync unpublished nothing: 2 record(s) failed, and a failed row may be a broker the file still lists");
  }, 30_000);

  test("a broker made without an externalId is taken over by the first record that names its slug; a slug another broker holds is a row error", async () => {
    const db = await emptyDirectory();
    const office = "1 King Street West,Toronto,ON,M5H 3T4,,,";
    await importJson(["brokers", csvFile("slugs-1.csv", [`,Slug Only Insurance,slug-only,,,,,,,,,,Auto,,,${office}`, `CRM-X,Held Insurance,held,,,,,,,,,,Auto,,,${office}`])], db);
    const second = await importJson(
      ["brokers", csvFile("slugs-2.csv", [`CRM-S,Slug Only Insurance,slug-only,,,,,,,,,,Auto,,,${office}`, `CRM-Y,Other Insurance,held,,,,,,,,,,Auto,,,${office}`])],
      db,
    );
    expect(second.summary).toMatchObject({ created: 0, updated: 1, failed: 1 });
    expect(second.summary.errors).toEqual([{ line: 3, field: "slug", message: '"held" is already the slug of the broker with externalId "CRM-X": give this broker another slug' }]);
    expect(await directoryRows(db, "SELECT external_id, slug FROM brokers ORDER BY slug")).toEqual([
      { external_id: "CRM-X", slug: "held" },
      { external_id: "CRM-S", slug: "slug-only" },
    ]);
  }, 30_000);

  test("--report writes one JSON line per row; --all-or-nothing writes nothing when a row is refused", async () => {
    const db = await emptyDirectory();
    const report = tmp.path("report.ndjson");
    const all = await importJson(["brokers", BROKERS, "--all-or-nothing", "--report", report], db);
    expect(all.summary).toMatchObject({ created: 18, failed: 2 });
    expect(all.stderr).toBe("Error: 2 record(s) refused: nothing was written.\n");
    expect(await directoryRows(db, "SELECT count(*) AS n FROM brokers")).toEqual([{ n: 0 }]);

    await importJson(["brokers", BROKERS, "--report", report], db);
    const lines = (await Bun.file(report).text()).trim().split("\n").map((line) => JSON.parse(line));
    expect(lines).toHaveLength(20);
    expect(lines[0]).toMatchObject({ line: 2, key: "CRM-1001", outcome: "created" });
    expect(lines.filter((line) => line.outcome === "failed").map((line) => line.line)).toEqual([24, 26]);
  }, 30_000);

  test("standard input with -", async () => {
    const db = await emptyDirectory();
    const text = await Bun.file(BROKERS).text();
    expect((await importJson(["brokers", "-"], db, text)).summary).toMatchObject({ created: 18, failed: 2 });
  }, 30_000);

  test("bad input is one line and exit 1; a mistake in the command is exit 2; never a stack trace", async () => {
    const db = await emptyDirectory();
    const png = tmp.path("photo.csv");
    writeFileSync(png, Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"));
    const cases: [string[], number, RegExp][] = [
      [["brokers", tmp.path("missing.csv")], 1, /^Error: .*missing\.csv: no such file\.\n$/],
      [["brokers", tmp.dir], 1, /^Error: .* is a folder: name a CSV, NDJSON or JSON file\.\n$/],
      [["brokers", png], 1, /^Error: .*photo\.csv: .*PNG.*\n$/],
      [["reviews", BROKERS], 1, /^Error: .*brokers\.csv: .*\n$/],
      [["people", BROKERS], 2, /^Error: Name what to import and the file/],
      [["brokers"], 2, /^Error: Name what to import and the file/],
      [["reviews", REVIEWS, "--sync"], 2, /^Error: --sync is for brokers only/],
      [["brokers", "-", "--all-or-nothing"], 2, /^Error: --all-or-nothing reads the file twice/],
    ];
    for (const [args, code, stderr] of cases) {
      const result = await runCli(["import", ...args]);
      expect({ args, code: result.code, stderr: result.stderr }).toMatchObject({ args, code, stderr: expect.stringMatching(stderr) });
      expect(result.stderr).not.toContain("    at ");
    }
  }, 30_000);
});
