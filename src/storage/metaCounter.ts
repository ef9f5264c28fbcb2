import { eq } from "drizzle-orm";
import { meta } from "../../db/schema.ts";
import type { DirectoryDb } from "./database.ts";

/**
 * A counter in `meta` that triggers bump on every write a cache depends on, from any process.
 * Read at most once per turn of the event loop: a request asks several times, and a write made
 * elsewhere is seen on the next turn. A write made by this process through a store calls
 * `invalidate()`, so even the same turn sees it.
 */
export class MetaCounter {
  private readonly query;
  private thisTurn: number | undefined;

  constructor(db: DirectoryDb, key: string) {
    this.query = db.select({ value: meta.value }).from(meta).where(eq(meta.key, key)).prepare();
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

  invalidate(): void {
    this.thisTurn = undefined;
  }
}
