import { existsSync } from "node:fs";

/** The wal-index header: two copies of 48 bytes at the start of the `-shm` file. */
const HEADER_WORDS = 24;

/**
 * Whether a WAL-mode SQLite database may have changed since a snapshot, told without asking
 * SQLite. Every commit, from any connection of any process, rewrites the wal-index header at the
 * start of the database's `-shm` file (https://www.sqlite.org/walformat.html: it holds a change
 * counter, the last valid frame and checksums; SQLite itself compares it to learn that another
 * connection wrote). Reading those bytes from a shared read-only use of the mapping costs
 * nanoseconds; a statement that reads a counter row costs microseconds, and a cached key's
 * request asked twice per turn of the event loop (a sixth of a hot answer's time).
 *
 * Never written through (the mapping is SQLite's shared memory). Undefined where there is no
 * `-shm` to map (an in-memory database, a read-only file not in WAL mode): callers then ask
 * SQLite every time, as before.
 *
 * @example
 * const signal = WalChangeSignal.open(db.$client.filename);
 * const seen = signal?.snapshot();
 * // … later: re-read only when something was committed meanwhile
 * if (!signal || signal.changedSince(seen!)) value = readFromTable();
 */
export class WalChangeSignal {
  private constructor(private readonly header: Int32Array) {}

  static open(databasePath: string): WalChangeSignal | undefined {
    const shm = `${databasePath}-shm`;
    if (databasePath === "" || databasePath === ":memory:" || !existsSync(shm)) return undefined;
    try {
      const bytes = Bun.mmap(shm, { shared: true, size: HEADER_WORDS * 4 });
      if (bytes.byteLength < HEADER_WORDS * 4) return undefined;
      return new WalChangeSignal(new Int32Array(bytes.buffer, bytes.byteOffset, HEADER_WORDS));
    } catch {
      return undefined;
    }
  }

  /** A copy of the header now, to compare with later. */
  snapshot(): Int32Array {
    return this.header.slice();
  }

  /**
   * Whether a commit has happened since `seen` was taken (a torn read during a commit counts as
   * one); `seen` is brought up to now. Call it before reading what it guards, so a commit that
   * lands during the read shows next time.
   */
  changedSince(seen: Int32Array): boolean {
    let changed = false;
    for (let i = 0; i < HEADER_WORDS; i++) {
      const word = this.header[i]!;
      if (word !== seen[i]) {
        seen[i] = word;
        changed = true;
      }
    }
    return changed;
  }
}
