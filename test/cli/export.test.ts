/**
 * `export brokers|reviews` (issue 27): the columns `import` reads, published and unpublished alike,
 * so that importing an export reports every row unchanged — in CSV (cells that a spreadsheet would
 * run as a formula guarded with ') and in NDJSON, over the demo directory and imported brokers.
 */
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { REPO, runCli, tempDir } from "./cliHarness.ts";
import { directoryRows, directoryVersion } from "../support/directoryRows.ts";

const tmp = tempDir();
afterAll(() => tmp.remove());

const cli = (args: string[], db: string) => runCli(args, { DATABASE_PATH: db });

test("import(export(x)) reports every broker and review unchanged, in CSV and NDJSON, and writes nothing", async () => {
  const db = tmp.path("exported.db");
  expect((await cli(["seed", "--brokers", "60"], db)).code).toBe(0);
  await cli(["import", "brokers", join(REPO, "db/examples/brokers.csv"), "--quiet"], db);
  expect((await cli(["import", "reviews", join(REPO, "db/examples/reviews.ndjson"), "--quiet"], db)).code).toBe(0);
  const [{ brokers, unpublished }] = (await directoryRows(db, "SELECT count(*) AS brokers, sum(CASE WHEN published THEN 0 ELSE 1 END) AS unpublished FROM brokers")) as [{ brokers: number; unpublished: number }];
  const [{ reviews }] = (await directoryRows(db, "SELECT count(*) AS reviews FROM reviews")) as [{ reviews: number }];
  expect(unpublished).toBeGreaterThan(0); // the demo directory has some: they are exported too
  const version = await directoryVersion(db);

  for (const format of ["csv", "ndjson"]) {
    const brokersFile = tmp.path(`brokers.${format}`);
    const reviewsFile = tmp.path(`reviews.${format}`);
    expect((await cli(["export", "brokers", "--format", format, "--output", brokersFile], db)).code).toBe(0);
    const printed = await cli(["export", "reviews", "--format", format], db);
    expect(printed.code).toBe(0);
    await Bun.write(reviewsFile, printed.stdout);

    const brokersBack = await cli(["import", "brokers", brokersFile, "--json", "--quiet"], db);
    expect({ format, ...JSON.parse(brokersBack.stdout) }).toMatchObject({ format, created: 0, updated: 0, unchanged: brokers, failed: 0 });
    const reviewsBack = await cli(["import", "reviews", reviewsFile, "--json", "--quiet"], db);
    expect({ format, ...JSON.parse(reviewsBack.stdout) }).toMatchObject({ format, created: 0, updated: 0, unchanged: reviews, failed: 0 });
  }
  expect(await directoryVersion(db)).toBe(version);

  const bytes = new Uint8Array(await Bun.file(tmp.path("brokers.csv")).arrayBuffer());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // the byte-order mark, for Excel's accents
  const csv = new TextDecoder().decode(bytes.subarray(3));
  expect(csv.split("\r\n")[0]).toBe(
    '"externalId","name","slug","email","phone","website","description","foundingYear","teamSize","isVerified","published","licenseNumber","insuranceLines","specialties","languages","address","city","province","postalCode","isPrimary","latitude","longitude"',
  );
  // A phone in E.164 is written as it is, quoted: no spreadsheet reads it as a formula (issue 29).
  expect(csv).toContain(`"CRM-1001","Maple Leaf Insurance Brokers","maple-leaf-insurance-brokers","info@mapleleafbrokers.ca","+14165550142"`);
}, 60_000);

test("export: a mistake in the command is one line and exit 2", async () => {
  const db = tmp.path("empty.db");
  for (const args of [["export"], ["export", "leads"], ["export", "brokers", "--format", "xlsx"]]) {
    const result = await cli(args, db);
    expect({ args, code: result.code }).toEqual({ args, code: 2 });
    expect(result.stderr).toMatch(/^Error: [^\n]+\n(Run 'export --help' for usage\.\n)?$/);
  }
}, 30_000);
