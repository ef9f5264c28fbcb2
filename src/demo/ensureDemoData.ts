import { count } from "drizzle-orm";
import { brokers } from "../../db/schema.ts";
import { loadDirectory } from "../../db/seed/loadDirectory.ts";
import type { Services } from "../services.ts";

/** The demo directory: 300 brokers (about 285 published) and about 3,500 reviews. */
export const DEMO_DIRECTORY = { brokers: 300, reviewsPerBroker: 12, seed: 2026 } as const;
export const DEMO_WORKSPACE = "demo";

export interface DemoSetup {
  loadedBrokers: number;
  /** The new all-scope key, shown once, when the database had no keys. */
  key?: string;
}

/**
 * On an empty database: loads the demo directory, and when there are no keys yet, creates
 * the demo workspace with an all-scope key. Returns what it did so the caller can print it.
 */
export function ensureDemoData(services: Services): DemoSetup {
  const setup: DemoSetup = { loadedBrokers: 0 };
  const existing = services.db.select({ n: count() }).from(brokers).get()?.n ?? 0;
  if (existing === 0) setup.loadedBrokers = loadDirectory(services.db, DEMO_DIRECTORY).brokers;
  if (services.keys.count() === 0) {
    setup.key = services.keys.create({ workspace: DEMO_WORKSPACE, name: "demo (API scopes)" }, services.now()).key;
  }
  return setup;
}
