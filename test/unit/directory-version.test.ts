import { expect, test } from "bun:test";
import { openDatabase } from "../../src/storage/sqlite/database.ts";
import { migrate } from "../../src/storage/sqlite/migrate.ts";
import { BrokerStore } from "../../src/storage/stores/brokerStore.ts";
import { insertBroker } from "../support/directoryFixtures.ts";

test("the directory version is read once per event-loop turn and a write is seen on the next turn", async () => {
  const db = openDatabase(":memory:");
  migrate(db);
  const store = new BrokerStore(db);
  const before = store.version();
  insertBroker(db, { name: "Turn Brokers", slug: "turn-brokers", province: "ON", city: "Toronto" });
  expect(store.version()).toBe(before); // same turn: the value already read
  await new Promise((resolve) => setImmediate(resolve));
  expect(store.version()).toBeGreaterThan(before);
  expect(store.findBySlug("turn-brokers")?.name).toBe("Turn Brokers");
});
