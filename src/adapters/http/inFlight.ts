import { unsentBytes } from "./unsentBytes.ts";

/**
 * Bun (1.3) says nothing when the socket has taken a streamed body's last byte. Our streams
 * are produced at the client's pace (pacedStream), so once produced little is left, but on
 * Linux stop still waits for the kernel's send queues to empty (unsentBytes); elsewhere the
 * bytes of a produced stream are assumed to leave at no less than this rate, and stop waits that long.
 */
export const ASSUMED_CLIENT_BYTES_PER_SECOND = 1024 * 1024;
const SEND_QUEUE_POLL_MS = 50;
const SEND_QUEUE_EMPTY_POLLS = 6;

/**
 * The responses this server has not finished: a request counts from its arrival until its
 * handler returned, or, for a streamed body, until the stream was produced whole (or
 * cancelled) and then sent (see ASSUMED_CLIENT_BYTES_PER_SECOND). Graceful stop waits for it
 * to empty, so a long download is not cut by a SIGTERM while the grace period lasts.
 */
export class InFlightResponses {
  private requests = 0;
  /** Requests begun since start, ever growing: whether any arrived lately (see IdleCollector). */
  private begun = 0;
  private producing = 0;
  /** When the last produced stream is expected to have left Bun's buffer (ms, epoch; 0: none yet). */
  private sentBy = 0;
  private waiters: (() => void)[] = [];

  /** The listening port, once known: its connections' send queues are watched at stop. */
  port: number | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts one request; the returned function ends it (call it once). */
  begin(): () => void {
    this.requests++;
    this.begun++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.requests--;
      this.wake();
    };
  }

  /** How many requests are unfinished now (a /metrics gauge). */
  get requestsInFlight(): number {
    return this.requests;
  }

  /** How many requests have begun since start. */
  get requestsBegun(): number {
    return this.begun;
  }

  /** A request whose handler returned a stream stays in flight until `produced` settles with its size, then while it is sent. */
  streamUntil(produced: Promise<number>, end: () => void): void {
    this.producing++;
    void produced.then(
      (bytes) => {
        this.producing--;
        this.sentBy = Math.max(this.sentBy, this.now() + (bytes / ASSUMED_CLIENT_BYTES_PER_SECOND) * 1000);
        end();
      },
      () => {
        this.producing--;
        end();
      },
    );
  }

  /** What is unfinished now, for the log line of a stop that hits its deadline. */
  counts(): { requests: number; streams: number; unsentBytes: number | undefined } {
    return { requests: this.requests, streams: this.producing, unsentBytes: this.unsent() };
  }

  /** Resolves once nothing is in flight and every produced stream has been sent. */
  async idle(): Promise<void> {
    if (this.requests > 0) await new Promise<void>((resolve) => this.waiters.push(resolve));
    if (this.sentBy === 0) return;
    if (this.unsent() !== undefined) {
      // Empty several polls in a row: between two of Bun's writes a queue can drain for a moment
      // while Bun still holds the rest (a busy event loop refills it late).
      for (let empty = 0; empty < SEND_QUEUE_EMPTY_POLLS; ) {
        await new Promise((resolve) => setTimeout(resolve, SEND_QUEUE_POLL_MS));
        empty = (this.unsent() ?? 0) > 0 ? 0 : empty + 1;
      }
      return;
    }
    const wait = this.sentBy - this.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }

  private unsent(): number | undefined {
    return this.port === undefined ? undefined : unsentBytes(this.port);
  }

  private wake(): void {
    // Reached whenever the last request in flight ends, i.e. often: nothing to allocate unless stop waits.
    if (this.requests > 0 || this.waiters.length === 0) return;
    for (const resolve of this.waiters.splice(0)) resolve();
  }
}
