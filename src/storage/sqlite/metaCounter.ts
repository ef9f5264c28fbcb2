import type { DirectoryDb } from "./database.ts";
import { WalChangeSignal } from "./walChangeSignal.ts";

/**
 * A counter in `meta` that triggers bump on every write a cache depends on, from any process.
 * Read at most once per turn of the event loop: a request asks several times, and a write made
 * elsewhere is seen on the next turn. From turn to turn the row is read again only when the WAL
 * shows a commit since the last read (see WalChangeSignal): every write to the counter, from
 * this process or another, is one. A write made by this process through a store calls
 * `invalidate()`, so even the same turn sees it.
 */
export class MetaCounter {
  private readonly query;
  private readonly path: string;
  private thisTurn: number | undefined;
  private value: number | undefined;
  /** The WAL's signal and the header as of the last read; looked for twice (the `-shm` appears with the first read). */
  private signal: WalChangeSignal | undefined;
  private seen: Int32Array = new Int32Array(0);
  private lookedForSignal = 0;

  constructor(
    db: DirectoryDb,
    private readonly key: string,
  ) {
    this.query = db.$client.query<{ value: number }, [string]>("SELECT value FROM meta WHERE key = ?");
    this.path = db.$client.filename;
  }

  current(): number {
    if (this.thisTurn === undefined) {
      this.thisTurn = this.read();
      setImmediate(() => {
        this.thisTurn = undefined;
      });
    }
    return this.thisTurn;
  }

  invalidate(): void {
    this.thisTurn = undefined;
    this.value = undefined;
  }

  private read(): number {
    // The header is taken before the row is read, so a commit landing in between shows next time.
    if (this.signal) {
      if (this.signal.changedSince(this.seen)) this.value = undefined;
    } else if (this.lookedForSignal < 2) {
      this.lookedForSignal++;
      this.signal = WalChangeSignal.open(this.path);
      if (this.signal) this.seen = this.signal.snapshot();
      this.value = undefined;
    } else {
      this.value = undefined;
    }
    this.value ??= this.query.get(this.key)?.value ?? 0;
    return this.value;
  }
}
