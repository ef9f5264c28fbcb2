/**
 * A JSON string value that is produced piece by piece while the response is being sent, so
 * that a very large text (the whole directory, inside a resources/read result) never exists
 * in memory at once — neither as itself nor escaped inside the JSON-RPC envelope.
 *
 * It stands in the result object like any value. JSON.stringify writes a unique token in its
 * place; `renderBody` then splits the serialized response at the token and streams the
 * pieces there, each escaped as JSON string content.
 */
export class StreamedText {
  readonly token = `mcp-streamed-text:${crypto.randomUUID()}`;

  constructor(
    /** The raw text, in pieces (a sync generator is pulled one piece per stream read). */
    readonly pieces: () => Iterable<string>,
    /** Told the UTF-8 size of the whole text once every piece was sent. */
    readonly onComplete?: (bytes: number) => void,
  ) {}

  toJSON(): string {
    return this.token;
  }
}

/**
 * A serialized response: a plain string, or a stream when it holds StreamedText values.
 * `onEnd` is told the bytes handed to the server once the stream has ended: produced whole,
 * cancelled, or cut by an error (so graceful stop can wait for it).
 */
export function renderBody(
  serialized: string,
  streamed: readonly StreamedText[],
  onError: (error: unknown) => void,
  onEnd: (bytes: number) => void = () => {},
): string | ReadableStream<Uint8Array> {
  const present = streamed.filter((text) => serialized.includes(JSON.stringify(text.token)));
  if (present.length === 0) return serialized;

  function* pieces(): Generator<string> {
    let rest = serialized;
    for (const text of present) {
      const quoted = JSON.stringify(text.token);
      const at = rest.indexOf(quoted);
      yield rest.slice(0, at) + '"';
      let bytes = 0;
      for (const piece of text.pieces()) {
        bytes += Buffer.byteLength(piece);
        // Escaping is per character, so escaping each piece equals escaping the whole.
        yield JSON.stringify(piece).slice(1, -1);
      }
      text.onComplete?.(bytes);
      rest = '"' + rest.slice(at + quoted.length);
    }
    yield rest;
  }

  // A Bun "direct" stream: write() hands bytes to the server. Where Bun signals that the
  // client is slower than we are, the producer waits instead of buffering the whole text.
  let cancelled = false;
  let sent = 0;
  let ended = false;
  const end = () => {
    if (!ended) onEnd(sent);
    ended = true;
  };
  const source: Bun.DirectUnderlyingSource<Uint8Array> = {
    type: "direct",
    cancel() {
      cancelled = true;
      end();
    },
    async pull(controller: ReadableStreamDirectController) {
      try {
        for (const piece of pieces()) {
          if (cancelled) return;
          sent += Buffer.byteLength(piece);
          const written: unknown = controller.write(piece);
          if (written instanceof Promise) await written;
          // Bun 1.4 says "the socket is full" with a negative count; 1.3 buffers everything.
          else if (typeof written === "number" && written < 0) await controller.flush(true);
          // Let other requests run between chunks of a long response.
          await new Promise((resolve) => setImmediate(resolve));
        }
        controller.close();
      } catch (error) {
        // Headers are gone already: all we can do is cut the response short, and log why.
        if (!cancelled) onError(error);
        controller.close(error instanceof Error ? error : new Error(String(error)));
      } finally {
        end();
      }
    },
  };
  // tsconfig's DOM lib hides Bun's `direct` overload of the constructor: name it explicitly.
  const DirectStream = ReadableStream as unknown as new (source: Bun.DirectUnderlyingSource<Uint8Array>) => ReadableStream<Uint8Array>;
  return new DirectStream(source);
}
