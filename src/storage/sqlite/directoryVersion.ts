import type { DirectoryDb } from "./database.ts";
import { MetaCounter } from "./metaCounter.ts";

/**
 * The number that changes whenever anything in the directory (brokers, offices, lines,
 * reviews, carriers) is written — bumped by triggers, so writes from any process count.
 * Every read cache keys on it.
 */
export class DirectoryVersion extends MetaCounter {
  constructor(db: DirectoryDb) {
    super(db, "directory_version");
  }
}
