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
