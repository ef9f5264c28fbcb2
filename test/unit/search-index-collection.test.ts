import { expect, test } from "bun:test";
import { openDatabase } from "../../src/storage/sqlite/database.ts";
import { DirectoryVersion } from "../../src/storage/sqlite/directoryVersion.ts";
import { migrate } from "../../src/storage/sqlite/migrate.ts";
import { SearchIndex } from "../../src/storage/search/searchIndex.ts";
import { insertBroker } from "../support/directoryFixtures.ts";

/** A directory of three brokers, its version, and an index whose collections are counted. */
function indexOfThree(minBrokers: number) {
  const db = openDatabase(":memory:");
  migrate(db);
  for (const name of ["Alder", "Birch", "Cedar"]) insertBroker(db, { name: `${name} Brokers`, slug: `${name.toLowerCase()}-brokers`, province: "ON", city: "Ottawa" });
  const version = new DirectoryVersion(db);
  let collections = 0;
  const index = new SearchIndex(db, { minBrokers, collect: () => collections++ });
  return { db, version, index, collections: () => collections };
}

test("a load of the attributes at the size threshold is followed by one collection, and each reload by another", async () => {
  const { db, version, index, collections } = indexOfThree(3);
  index.warm(version.current());
  expect(collections()).toBe(0); // the alphabetical order alone leaves little garbage

  index.warmAttributes(version.current());
  expect(collections()).toBe(1);
  index.search({ language: "english", facets: ["province"] }, 0, 20, version.current()); // reads the loaded attributes
  expect(index.publishedDetail("alder-brokers", version.current())?.detail?.row.name).toBe("Alder Brokers"); // and the details
  expect(collections()).toBe(1);

  insertBroker(db, { name: "Douglas Brokers", slug: "douglas-brokers", province: "ON", city: "Ottawa" });
  await new Promise((resolve) => setImmediate(resolve)); // the version is read once per turn
  index.warmAttributes(version.current()); // a broker added: a rebuild and a new load
  expect(collections()).toBe(2);
});

test("a directory under the threshold is loaded without a collection", () => {
  const { version, index, collections } = indexOfThree(4);
  index.warmAttributes(version.current());
  index.search({ language: "english", facets: ["province"] }, 0, 20, version.current());
  expect(collections()).toBe(0);
});

test("a large load runs a young collection every 4,096 rows read (the attributes' brokers and offices, the details'), a small one none", () => {
  const db = openDatabase(":memory:");
  migrate(db);
  // 4,100 brokers, each with its one office: one young collection in each of the four reads.
  db.$client.exec(`
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 4100)
    INSERT INTO brokers (id, slug, name, sort_name, description, province, city, team_size, is_verified, insurance_lines, specialties, languages, published, created_at, updated_at)
      SELECT i, 'b-' || i, 'B ' || i, 'b ' || i, '', 'ON', 'Ottawa', '1-10', 0, '[]', '[]', '[]', 1, 0, 0 FROM n;
    INSERT INTO broker_locations (broker_id, address, city, city_key, province, postal_code, is_primary)
      SELECT id, '1 Main St', 'Ottawa', 'ottawa', 'ON', 'K1A 0A1', 1 FROM brokers;`);
  const version = new DirectoryVersion(db);
  let young = 0;
  new SearchIndex(db, { minBrokers: 4_000, collect: () => {}, collectYoung: () => young++ }).warmAttributes(version.current());
  expect(young).toBe(4);
  young = 0;
  new SearchIndex(db, { minBrokers: 5_000, collect: () => {}, collectYoung: () => young++ }).warmAttributes(version.current());
  expect(young).toBe(0);
});
