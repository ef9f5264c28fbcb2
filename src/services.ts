import type { RateLimiter } from "./auth/rateLimiter.ts";
import { InMemoryRateLimiter } from "./auth/rateLimiter.ts";
import type { Logger } from "./log.ts";
import { BrokerStore } from "./storage/brokerStore.ts";
import { CarrierStore } from "./storage/carrierStore.ts";
import type { DirectoryDb } from "./storage/database.ts";
import { DirectoryVersion } from "./storage/directoryVersion.ts";
import { KeyStore } from "./storage/keyStore.ts";
import { LeadStore } from "./storage/leadStore.ts";
import { QuoteStore } from "./storage/quoteStore.ts";

/** Everything procedures and adapters need, built once per process and shared by requests. */
export interface Services {
  db: DirectoryDb;
  brokers: BrokerStore;
  keys: KeyStore;
  carriers: CarrierStore;
  quotes: QuoteStore;
  leads: LeadStore;
  rateLimiter: RateLimiter;
  log: Logger;
  /** Milliseconds since the epoch; injected so tests can move time. */
  now: () => number;
}

export function createServices(db: DirectoryDb, log: Logger, overrides: Partial<Services> = {}): Services {
  // One version for every directory cache, so a request reads it once whichever store asks.
  const directoryVersion = new DirectoryVersion(db);
  return {
    db,
    brokers: new BrokerStore(db, directoryVersion),
    keys: new KeyStore(db),
    carriers: new CarrierStore(db, directoryVersion),
    quotes: new QuoteStore(db),
    leads: new LeadStore(db),
    rateLimiter: new InMemoryRateLimiter(),
    log,
    now: Date.now,
    ...overrides,
  };
}
