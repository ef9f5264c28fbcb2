import { count } from "drizzle-orm";
import { brokers } from "../../db/schema.ts";
import { loadDirectory } from "./loadDirectory.ts";
import type { Services } from "../services.ts";
import type { Awaitable } from "../storage/ports.ts";

/** The demo directory: 300 brokers (about 285 published) and about 3,500 reviews. */
export const DEMO_DIRECTORY = { brokers: 300, reviewsPerBroker: 12, seed: 2026 } as const;
export const DEMO_WORKSPACE = "demo";

export interface DemoSetup {
  loadedBrokers: number;
  /** The new key with the five API scopes (keys:manage and webhooks:manage are never implicit), shown once, when the database had no keys. */
  key?: string;
}

/**
 * On an empty database: loads the demo directory, and when there are no keys yet, creates
 * the demo workspace with a key holding the five API scopes. Returns what it did so the caller can print it.
 * Over SQLite (every step synchronous); with PostgreSQL the directory comes from
 * loadDemoDirectoryPg (demo/loadDirectoryPg.ts) and the key from ensureDemoKey, awaited.
 */
export async function ensureDemoData(services: Services): Promise<DemoSetup> {
  const setup: DemoSetup = { loadedBrokers: 0 };
  const existing = services.db.select({ n: count() }).from(brokers).get()?.n ?? 0;
  if (existing === 0) setup.loadedBrokers = loadDirectory(services.db, DEMO_DIRECTORY).brokers;
  const key = await ensureDemoKey(services);
  if (key !== undefined) setup.key = key;
  return setup;
}

/** When there are no keys at all: the demo workspace's key with the default API scopes (shown once), else undefined. */
export function ensureDemoKey(services: Services): Awaitable<string | undefined> {
  const create = (existing: number) => {
    if (existing > 0) return undefined;
    return services.keys.create({ workspace: DEMO_WORKSPACE, name: "demo (API scopes)" }, services.now()).then(({ key }) => key);
  };
  const existing = services.keys.count();
  return existing instanceof Promise ? existing.then(create) : create(existing);
}
