import { connectionQueueIn, readTcpTables } from "./unsentBytes.ts";

/** A reading of one connection's send queue: bytes, "closed" (gone or closing), or undefined where the kernel does not say. */
export type SendQueueReading = number | "closed" | undefined;

interface Waiter {
  serverPort: number;
  clientPort: number;
  /** When its reading is due; a tick from half its delay on serves it too (see next()). */
  dueAt: number;
  earliest: number;
  resolve: (reading: SendQueueReading) => void;
}

/** Waiters due this soon after a tick are served by it too, whatever their delay. */
const BATCH_MS = 2;

/**
 * Reads the kernel's TCP tables for every paced stream at once. The tables list every socket of
 * the machine (thousands of lines on a busy host, TIME_WAIT included: 700 KB seen here), so a
 * read per stream per poll made 20 stalled downloads read 500 MB a second and churned the
 * heap by hundreds of MB. Here one read per tick answers every stream due by then, so the cost
 * follows the ticks, not the number of streams.
 */
export class SendQueueWatch {
  private readonly waiters = new Set<Waiter>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Infinity;
  private reading = false;

  /**
   * The connection's send queue, read `delayMs` from now, or from half that on when another
   * stream's reading comes then: streams polled at their own pace fall into the same ticks, so
   * twenty stalled downloads cost about one read per poll interval, not twenty.
   */
  next(serverPort: number, clientPort: number, delayMs: number): Promise<SendQueueReading> {
    return new Promise((resolve) => {
      const now = performance.now();
      this.waiters.add({ serverPort, clientPort, dueAt: now + delayMs, earliest: now + delayMs / 2, resolve });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.reading || this.waiters.size === 0) return;
    let due = Infinity;
    for (const waiter of this.waiters) due = Math.min(due, waiter.dueAt);
    if (this.timer !== undefined && this.timerAt <= due) return;
    clearTimeout(this.timer);
    this.timerAt = due;
    this.timer = setTimeout(() => void this.tick(), Math.max(0, due - performance.now()));
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    this.timerAt = Infinity;
    this.reading = true;
    const cutoff = performance.now() + BATCH_MS;
    const due = [...this.waiters].filter((waiter) => waiter.earliest <= cutoff);
    for (const waiter of due) this.waiters.delete(waiter);
    try {
      const tables = await readTcpTables();
      for (const waiter of due) waiter.resolve(tables === undefined ? undefined : connectionQueueIn(tables, waiter.serverPort, waiter.clientPort));
    } finally {
      this.reading = false;
      this.schedule();
    }
  }
}

/** The process's one watch: every paced stream of every server in it shares its reads. */
export const sendQueues = new SendQueueWatch();
