import type { Logger } from "../../log.ts";
import type { PgDb } from "./pgDatabase.ts";

/** The counters of PostgreSQL's meta table that triggers move and announce (migration 0001). */
export const WATCHED = {
  directory_version: "directory_changed",
  keys_version: "keys_changed",
} as const;
export type WatchedCounter = keyof typeof WATCHED;

/** The fallback when an announcement is lost (a dropped LISTEN connection): a read this often. */
const POLL_MS = 1_000;

/**
 * A counter of PostgreSQL's `meta` table as this process knows it. `current()` answers from
 * memory, synchronously: the read path cannot wait on the network per request. The value moves
 * when PostgreSQL announces a change (NOTIFY, sent at the writer's commit: milliseconds) and, as
 * the fallback, when a poll every second finds it moved, so every instance sees any change
 * within about a second even if an announcement was lost. A write made by this process awaits
 * `refresh()`, so its own next request sees it at once. Versions only grow: a late or repeated
 * announcement never moves the value back.
 *
 * @example
 * const keys = new PgVersionWatch(pg, "keys_version", log);
 * await keys.start();
 * keys.onChange(() => cache.clear());
 * keys.current(); // 42, from memory
 */
export class PgVersionWatch {
  private value = 0;
  private readonly listeners: ((version: number) => void)[] = [];
  private poll: ReturnType<typeof setInterval> | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private failing = false;

  constructor(
    private readonly pg: PgDb,
    private readonly counter: WatchedCounter,
    private readonly log: Logger,
  ) {}

  /** Reads the counter, then listens and polls. Rejects when PostgreSQL cannot be reached at all. */
  async start(): Promise<void> {
    await this.refresh();
    const { unlisten } = await this.pg.$client.listen(WATCHED[this.counter], (payload) => this.advance(Number(payload)));
    this.unlisten = unlisten;
    this.poll = setInterval(() => void this.refresh().catch(() => {}), POLL_MS);
    this.poll.unref();
  }

  current(): number {
    return this.value;
  }

  /** Reads the counter now (after a write of this process, or from the poll). */
  async refresh(): Promise<number> {
    try {
      const [row] = await this.pg.$client<{ value: string }[]>`SELECT value FROM meta WHERE key = ${this.counter}`;
      if (this.failing) this.log.info("PostgreSQL reachable again: change announcements resumed", { counter: this.counter });
      this.failing = false;
      this.advance(Number(row?.value ?? 0));
    } catch (error) {
      // Once per outage, not once a second: /readyz and the answers' 503s tell the rest.
      if (!this.failing) this.log.warn("PostgreSQL unreachable: cached data is kept until it answers", { counter: this.counter, error: error instanceof Error ? error.message : String(error) });
      this.failing = true;
      throw error;
    }
    return this.value;
  }

  /** Called with the new version after each move (announced or polled). */
  onChange(listener: (version: number) => void): void {
    this.listeners.push(listener);
  }

  async stop(): Promise<void> {
    clearInterval(this.poll);
    await this.unlisten?.().catch(() => {});
  }

  private advance(version: number): void {
    if (!Number.isFinite(version) || version <= this.value) return;
    this.value = version;
    for (const listener of this.listeners) listener(version);
  }
}
