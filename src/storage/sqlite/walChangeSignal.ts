import { closeSync, existsSync, fstatSync, openSync, readSync } from "node:fs";

/** The wal-index header: two copies of 48 bytes at the start of the `-shm` file. */
const HEADER_BYTES = 96;

/**
 * How many database files that still exist one process watches at once; past it a counter asks
 * SQLite every turn. A server opens one database (a few with PostgreSQL's replicas); a test
 * process opens hundreds, one after another, and deletes them.
 */
const MAX_SIGNALS = 64;

/** The signal of each database file this process watches, by path: one descriptor per file. */
const signals = new Map<string, WalChangeSignal>();

/**
 * Whether a WAL-mode SQLite database may have changed since a snapshot, told without asking
 * SQLite. Every commit, from any connection of any process, rewrites the wal-index header at the
 * start of the database's `-shm` file (https://www.sqlite.org/walformat.html: it holds a change
 * counter, the last valid frame and checksums; SQLite itself compares it to learn that another
 * connection wrote). Reading those 96 bytes costs one `pread` (2 µs); a statement that reads a counter
 * row costs 5–6 µs, and a cached key's request asked twice per turn of the event
 * loop (a sixth of a hot answer's time).
 *
 * The descriptor is opened once per file and **never closed while the process lives**: closing
 * any descriptor of a file drops every POSIX lock the process holds on it, SQLite's included.
 * SQLite keeps a shared lock on the `-shm` to tell other processes the file is in use; without
 * it, the next process to open the database (a CLI command beside the server) believes it is
 * the first, truncates the `-shm`, and this process's SQLite faults on its mapping (SIGBUS).
 * An earlier version mapped the file with Bun.mmap, which opens and closes a descriptor, and
 * crashed exactly so (test/unit/wal-change-signal.test.ts checks the lock is still held).
 * Only a descriptor whose file was deleted (SQLite's last connection closed it) is closed, when
 * the database is opened again.
 *
 * Undefined where there is no `-shm` (an in-memory database, a read-only file not in WAL mode)
 * or the process watches MAX_SIGNALS files already: callers then ask SQLite every time.
 *
 * @example
 * const signal = WalChangeSignal.open(db.$client.filename);
 * const seen = signal?.snapshot();
 * // … later: re-read only when something was committed meanwhile
 * if (!signal || signal.changedSince(seen!)) value = readFromTable();
 */
export class WalChangeSignal {
  private readonly header = new Int32Array(HEADER_BYTES / 4);
  private readonly headerBytes = new Uint8Array(this.header.buffer);

  private constructor(
    private readonly shm: string,
    private fd: number,
  ) {}

  static open(databasePath: string): WalChangeSignal | undefined {
    const shm = `${databasePath}-shm`;
    const known = signals.get(databasePath);
    try {
      if (known) return known.current();
      if (databasePath === "" || databasePath === ":memory:" || !existsSync(shm)) return undefined;
      if (signals.size >= MAX_SIGNALS) WalChangeSignal.forgetDeletedFiles();
      if (signals.size >= MAX_SIGNALS) return undefined;
      const signal = new WalChangeSignal(shm, openSync(shm, "r"));
      signals.set(databasePath, signal);
      return signal;
    } catch {
      return undefined;
    }
  }

  /**
   * This signal, on the `-shm` SQLite uses now. The file is deleted only when the last
   * connection closes, so a signal in use stays on the right file; but a database closed and
   * opened again in this process (a restart in tests) gets a new `-shm`: the descriptor of the
   * deleted one holds no lock SQLite still needs, so it may close.
   */
  private current(): WalChangeSignal {
    if (this.deleted()) {
      const fresh = openSync(this.shm, "r");
      this.close();
      this.fd = fresh;
    }
    return this;
  }

  /** Whether this signal's `-shm` was deleted (the database closed, or its files removed). */
  private deleted(): boolean {
    return fstatSync(this.fd).nlink === 0;
  }

  /** Closes the descriptor of a deleted file: nobody can open that file again, so no lock of it matters. */
  private close(): void {
    closeSync(this.fd);
  }

  /**
   * Makes room past MAX_SIGNALS by closing the signals of deleted files: a process that opens many
   * databases over its life (a test run, PostgreSQL replicas rebuilt in new directories) keeps a
   * descriptor only for the files that still exist.
   */
  private static forgetDeletedFiles(): void {
    for (const [path, signal] of signals) {
      if (!signal.deleted()) continue;
      signal.close();
      signals.delete(path);
    }
  }

  /** A copy of the header now, to compare with later. */
  snapshot(): Int32Array {
    this.read();
    return this.header.slice();
  }

  /**
   * Whether a commit has happened since `seen` was taken (a torn or short read counts as one);
   * `seen` is brought up to now. Call it before reading what it guards, so a commit that lands
   * during the read shows next time.
   */
  changedSince(seen: Int32Array): boolean {
    let changed = !this.read();
    for (let i = 0; i < this.header.length; i++) {
      const word = this.header[i]!;
      if (word !== seen[i]) {
        seen[i] = word;
        changed = true;
      }
    }
    return changed;
  }

  /** Reads the header; false when it could not be read whole (then it is zeroed). */
  private read(): boolean {
    try {
      if (readSync(this.fd, this.headerBytes, 0, HEADER_BYTES, 0) === HEADER_BYTES) return true;
    } catch {
      // Unreadable: the caller reads the row, as without a signal.
    }
    this.header.fill(0);
    return false;
  }
}
