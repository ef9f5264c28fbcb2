import { eq } from "drizzle-orm";
import { meta } from "../../db/schema.ts";
import type { DirectoryDb } from "./database.ts";

/**
 * The number that changes whenever anything in the directory (brokers, offices, lines,
 * reviews, carriers) is written — bumped by triggers, so writes from any process count.
 * Every read cache keys on it. Read at most once per turn of the event loop: a request asks
 * several times (response cache, result caches, carriers) and no request writes the
 * directory, so one read serves them all and a write is seen on the next turn.
 */
export class DirectoryVersion {
  private readonly query;
  private thisTurn: number | undefined;

  constructor(db: DirectoryDb) {
    this.query = db.select({ value: meta.value }).from(meta).where(eq(meta.key, "directory_version")).prepare();
  }

  current(): number {
    if (this.thisTurn === undefined) {
      this.thisTurn = this.query.get()?.value ?? 0;
      setImmediate(() => {
        this.thisTurn = undefined;
      });
    }
    return this.thisTurn;
  }
}
