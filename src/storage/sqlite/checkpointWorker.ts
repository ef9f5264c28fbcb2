/**
 * The checkpointer's thread (see BackgroundCheckpoints): its own connection to the database,
 * copying the write-ahead log back into the database file with PASSIVE checkpoints, which
 * never wait for readers or writers (SQLite: https://www.sqlite.org/c3ref/wal_checkpoint_v2.html).
 * The serving thread's writes then never pay for a checkpoint (a write of the log's pages to
 * the file and its fsync: up to 100–170 ms on this machine, every 1,000 pages of log).
 *
 * Messages in: `{ path, intervalMs }` once, then `"stop"`. Messages out: `{ ready: true }` once
 * the connection is open, `{ checkpointed: frames }` after each checkpoint that copied
 * something, `{ error }` when the database cannot be checkpointed (the serving thread then
 * checkpoints itself again).
 */
import { Database } from "bun:sqlite";

declare const self: Worker;

let db: Database | undefined;
let timer: ReturnType<typeof setInterval> | undefined;

self.onmessage = (event: MessageEvent<{ path: string; intervalMs: number } | "stop">) => {
  if (event.data === "stop") {
    clearInterval(timer);
    db?.close();
    db = undefined;
    self.postMessage({ stopped: true });
    return;
  }
  try {
    db = new Database(event.data.path, { readwrite: true, create: false });
    db.exec("PRAGMA busy_timeout = 5000");
    const checkpoint = db.query<{ busy: number; log: number; checkpointed: number }, []>("PRAGMA wal_checkpoint(PASSIVE)");
    let copied = 0;
    timer = setInterval(() => {
      try {
        const result = checkpoint.get();
        if (result && result.checkpointed !== copied) {
          copied = result.checkpointed;
          self.postMessage({ checkpointed: copied });
        }
      } catch (error) {
        clearInterval(timer);
        self.postMessage({ error: error instanceof Error ? error.message : String(error) });
      }
    }, event.data.intervalMs);
    self.postMessage({ ready: true });
  } catch (error) {
    self.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
};
