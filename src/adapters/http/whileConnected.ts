/**
 * The net under body reads: `read`, or a rejection once its client is gone, so that a read Bun
 * never settles cannot hold its request (see readBodyBytes). Bun 1.3 itself rejects a body
 * read when the client goes away (test/http/aborted-uploads.test.ts); the net is for whatever
 * else leaves one pending.
 *
 * A read is watched through its request's `signal` only once it has been pending a whole
 * sweep (one to two seconds): most bodies arrive with their headers and are read within the
 * turn, and asking every request for its signal cost about 2 µs of a 40 µs MCP call. A signal
 * asked for after the client left already says so (`aborted`), so a late watch misses nothing.
 */
const SWEEP_MS = 1000;

/** What the net needs of a request: its abort signal (asked for only when watching). */
type Watchable = Pick<Request, "signal">;

interface PendingRead {
  request: Watchable;
  giveUp: (error: Error) => void;
  /** Seen pending by a sweep already: the next one watches it. */
  seen: boolean;
}

const pending = new Set<PendingRead>();
let sweeper: ReturnType<typeof setInterval> | undefined;

export function whileConnected<T>(request: Watchable, read: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const entry: PendingRead = { request, giveUp: reject, seen: false };
    pending.add(entry);
    if (sweeper === undefined) {
      sweeper = setInterval(sweep, SWEEP_MS);
      sweeper.unref();
    }
    read.then(
      (value) => {
        pending.delete(entry);
        resolve(value);
      },
      (error: unknown) => {
        pending.delete(entry);
        reject(error);
      },
    );
  });
}

function sweep(): void {
  if (pending.size === 0) {
    clearInterval(sweeper);
    sweeper = undefined;
    return;
  }
  for (const entry of pending) {
    if (!entry.seen) {
      entry.seen = true;
      continue;
    }
    // From here the signal watches it; settling it later is harmless (a promise settles once).
    pending.delete(entry);
    const { signal } = entry.request;
    const gone = () => entry.giveUp(new Error("the client closed the connection"));
    if (signal.aborted) gone();
    else signal.addEventListener("abort", gone, { once: true });
  }
}
