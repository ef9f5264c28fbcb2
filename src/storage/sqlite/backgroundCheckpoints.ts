import type { Logger } from "../../log.ts";
import type { DirectoryDb } from "./database.ts";

/** How often the checkpointer copies the log back (a PASSIVE checkpoint with nothing to copy costs microseconds). */
const CHECKPOINT_INTERVAL_MS = 250;
/** SQLite's own threshold (pages of log), which the serving connection keeps while the checkpointer is not running. */
const SQLITE_DEFAULT_AUTOCHECKPOINT = 1_000;
/**
 * The serving connection's threshold while the checkpointer runs: a safety net, reached only if
 * the checkpointer stops keeping up (64 MiB of log at 4 KiB pages), so the log stays bounded.
 */
const SAFETY_NET_AUTOCHECKPOINT = 16_384;
/** How long the checkpointer's connection may take to open, and its stop to finish. */
const READY_TIMEOUT_MS = 5_000;

/**
 * The worker's script: beside this file when run from source; the compiled executable, which
 * bundles it as an entrypoint of its own, says where it is (scripts/registerEmbeddedAssets.ts).
 */
let workerScript = new URL("./checkpointWorker.ts", import.meta.url).href;

/** Where the checkpointer's script is, when not beside this module (the compiled executable). */
export function useCheckpointWorkerScript(url: string): void {
  workerScript = url;
}

/**
 * Checkpoints off the serving thread. SQLite copies its write-ahead log back into the database
 * file at a commit that finds 1,000 pages of log: that commit also writes and fsyncs the file,
 * and at 100,000 brokers under a stream of quotes it took up to 100–170 ms, during which the
 * event loop answered nobody (a batch of 8 quotes: p99 9.5 ms, against 2 ms without). Here a
 * worker thread with its own connection runs PASSIVE checkpoints four times a second (they never
 * block readers or the writer); the serving connection's own threshold is raised to a safety
 * net. If the worker fails, the serving connection goes back to SQLite's threshold, and that
 * is logged.
 *
 * @example
 * const checkpoints = BackgroundCheckpoints.start(db, log); // undefined: not applicable
 * await checkpoints?.stop(); // before the database is closed
 */
export class BackgroundCheckpoints {
  /** Log frames the last checkpoint had copied into the file (for tests and metrics). */
  framesCopied = 0;
  /** Whether the worker checkpoints now (the serving connection keeps only the safety net). */
  running = false;
  #stopped: (() => void) | undefined;
  #ended = false;

  private constructor(
    private readonly worker: Worker,
    private readonly db: DirectoryDb,
    private readonly log: Logger,
  ) {}

  /**
   * Starts the worker on an on-disk database in WAL mode; undefined elsewhere (in memory,
   * read-only, not WAL). Returns at once: until the worker's connection is open (a few
   * milliseconds, off the start-up path), the serving connection checkpoints as SQLite does.
   */
  static start(db: DirectoryDb, log: Logger): BackgroundCheckpoints | undefined {
    const client = db.$client;
    if (client.filename === "" || client.filename === ":memory:") return undefined;
    const mode = client.query<{ journal_mode: string }, []>("PRAGMA journal_mode").get()?.journal_mode;
    if (mode !== "wal") return undefined;
    // smol: a small heap (the worker holds one statement); ref false: it never keeps the process alive.
    const worker = new Worker(workerScript, { smol: true, ref: false });
    const checkpoints = new BackgroundCheckpoints(worker, db, log);
    checkpoints.connect(client.filename);
    return checkpoints;
  }

  /** Stops the worker (its connection closed first) and gives checkpoints back to the serving connection. */
  async stop(): Promise<void> {
    if (!this.#ended) {
      const stopped = new Promise<void>((resolve) => (this.#stopped = resolve));
      this.worker.postMessage("stop");
      await Promise.race([stopped, Bun.sleep(READY_TIMEOUT_MS)]);
      this.end();
    }
    this.handBack();
  }

  private end(): void {
    this.#ended = true;
    this.worker.terminate();
  }

  private connect(path: string): void {
    const timeout = setTimeout(() => this.failed("its connection did not open within 5 s"), READY_TIMEOUT_MS);
    timeout.unref();
    this.worker.onmessage = (event: MessageEvent<{ ready?: true; checkpointed?: number; error?: string; stopped?: true }>) => {
      const message = event.data;
      if (message.ready) {
        clearTimeout(timeout);
        this.takeOver();
      } else if (message.checkpointed !== undefined) {
        this.framesCopied = message.checkpointed;
      } else if (message.stopped) {
        this.#stopped?.();
      } else if (message.error !== undefined) {
        clearTimeout(timeout);
        this.failed(message.error);
      }
    };
    this.worker.onerror = (event) => {
      clearTimeout(timeout);
      this.failed(event.message);
    };
    this.worker.postMessage({ path, intervalMs: CHECKPOINT_INTERVAL_MS });
  }

  /** The worker is checkpointing: the serving connection keeps only the safety net. */
  private takeOver(): void {
    this.running = true;
    try {
      this.db.$client.exec(`PRAGMA wal_autocheckpoint = ${SAFETY_NET_AUTOCHECKPOINT}`);
    } catch {
      // Closed meanwhile: nothing to take over.
    }
  }

  private failed(error: string): void {
    this.log.warn("checkpoint worker failed: checkpoints are back on the serving thread", { error });
    this.end();
    this.handBack();
  }

  private handBack(): void {
    this.running = false;
    try {
      this.db.$client.exec(`PRAGMA wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT}`);
    } catch {
      // The connection is closed already: nothing to hand back to.
    }
  }
}
