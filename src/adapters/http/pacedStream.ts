import { sendQueues } from "./sendQueueWatch.ts";

/** The connection a response goes out on, as the kernel names it (see connectionQueueIn). */
export interface ResponseSocket {
  serverPort: number;
  clientPort: number;
}

/**
 * Bytes handed to Bun before the producer waits for the client. Bun 1.3 accepts every write
 * and keeps what the socket refuses in its own buffer, with no signal (1.4 adds one: a
 * write's pending promise), so a producer that never waits holds the whole body in memory
 * for a client that reads nothing. Here it writes this much, then waits until the kernel's
 * send queue for the connection has (nearly) emptied: Bun's buffer is then empty too, since
 * Bun refills the kernel's queue whenever it has room. A stream thus holds about this much
 * plus one piece, whatever the client's pace.
 */
export const PACED_BYTES = 1024 * 1024;
/**
 * "Nearly empty": below the smallest queue a full socket holds (a fresh connection's send
 * buffer holds tens of KB), so a stalled client is never mistaken for a drained one.
 */
const DRAINED_BELOW_BYTES = 4 * 1024;
/**
 * Polls of the send queue back off from 1 ms to this: a client reading along is seen within a
 * few ms (its queue drains between two polls); one that has stopped costs a poll this often.
 */
const MAX_POLL_MS = 100;
// A client that stops reading is left to Bun's idle timeout (IDLE_TIMEOUT_SECONDS in
// server.ts): it closes a connection whose output has not moved for that long, without the
// body's end, and the producer, polling, sees the connection gone and stops.

export interface PacedStreamOptions {
  /** The response's connection; absent (a test's in-process call) or unknown to the kernel: no pacing by the socket. */
  socket: ResponseSocket | undefined;
  /** Aborted when the server stops for good: the body is cut short. */
  cut: AbortSignal;
  /** A failure while producing (the headers are gone: the body is cut short). */
  onError(error: unknown): void;
  /** Once, when the stream ends: produced whole, cancelled, closed by the client, or cut. `bytes`: what was handed to Bun. */
  onEnd(bytes: number, complete: boolean): void;
}

/**
 * A response body written piece by piece at the client's pace (see PACED_BYTES), yielding to
 * the event loop between pieces so other requests run during a long download.
 */
export function pacedStream(pieces: () => Iterable<string> | AsyncIterable<string>, options: PacedStreamOptions): ReadableStream<Uint8Array> {
  let cancelled = false;
  let sent = 0;
  let ended = false;
  const end = (complete: boolean) => {
    if (!ended) options.onEnd(sent, complete);
    ended = true;
  };
  const source: Bun.DirectUnderlyingSource<Uint8Array> = {
    type: "direct",
    cancel() {
      cancelled = true;
      end(false);
    },
    async pull(controller: ReadableStreamDirectController) {
      let unpaced = 0;
      try {
        for await (const piece of pieces()) {
          if (cancelled) return;
          const bytes = Buffer.byteLength(piece);
          sent += bytes;
          unpaced += bytes;
          const written: unknown = controller.write(piece);
          // Bun 1.4: a pending promise says the socket is full.
          if (written instanceof Promise) await written;
          if (unpaced >= PACED_BYTES) {
            unpaced = 0;
            controller.flush();
            if ((await waitForClient(options.socket, () => cancelled || options.cut.aborted)) === "gone" && !options.cut.aborted) return end(false);
          } else {
            // Let other requests run between pieces of a long response.
            await new Promise((resolve) => setImmediate(resolve));
          }
          if (options.cut.aborted) return cutAtStop(end);
        }
        if (cancelled) return;
        controller.close();
        end(true);
      } catch (error) {
        // Headers are gone already: all we can do is cut the response short, and log why.
        if (!cancelled) options.onError(error);
        controller.close(error instanceof Error ? error : new Error(String(error)));
        end(false);
      }
    },
  };
  // tsconfig's DOM lib hides Bun's `direct` overload of the constructor: name it explicitly.
  const DirectStream = ReadableStream as unknown as new (source: Bun.DirectUnderlyingSource<Uint8Array>) => ReadableStream<Uint8Array>;
  return new DirectStream(source);
}

/**
 * The server stops for good: the stream is left unfinished, never closed. Bun 1.3 ends a body
 * whose producer returns, or closes it even with an error, as if it were whole (the chunked
 * terminator goes out, and a client cannot tell a cut CSV from a complete one), so the
 * producer stays pending and the process's exit closes the connection mid-body instead.
 */
function cutAtStop(end: (complete: boolean) => void): Promise<never> {
  end(false);
  return new Promise<never>(() => {});
}

/**
 * Waits until the connection's send queue has drained, or "gone" once it closed (or the stream
 * ended). Each poll comes a timer later, never at once: the tables are read on another thread,
 * which could otherwise see the queue before Bun has sent what was just written (and take an
 * empty queue for a drained one); and "drained" needs two low readings in a row for the same
 * reason. "Closed" needs two readings in a row too: the kernel writes the tables in pieces as
 * they are read, and a socket table changing meanwhile can leave a line out of one reading;
 * taken for a closed connection, it would end the body early, looking whole. A client that
 * has stopped reading is polled less and less often (MAX_POLL_MS).
 */
async function waitForClient(socket: ResponseSocket | undefined, ended: () => boolean): Promise<"ready" | "gone"> {
  if (!socket) return "ready";
  let low = 0;
  let closed = 0;
  for (let pollMs = 1; ; pollMs = Math.min(MAX_POLL_MS, pollMs * 2)) {
    const queue = await sendQueues.next(socket.serverPort, socket.clientPort, pollMs);
    if (ended()) return "gone";
    if (queue === undefined) return "ready";
    closed = queue === "closed" ? closed + 1 : 0;
    if (closed === 2) return "gone";
    if (queue === "closed") {
      pollMs = 0.5;
      continue;
    }
    low = queue < DRAINED_BELOW_BYTES ? low + 1 : 0;
    if (low === 2) return "ready";
    // A client keeping up: look again soon rather than after the longest wait.
    if (low === 1) pollMs = 0.5;
  }
}
