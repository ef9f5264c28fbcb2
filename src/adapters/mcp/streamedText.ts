import { pacedStream, type ResponseSocket } from "../http/pacedStream.ts";

/**
 * A JSON string value that is produced piece by piece while the response is being sent, so
 * that a very large text (the whole directory, inside a resources/read result) never exists
 * in memory at once — neither as itself nor escaped inside the JSON-RPC envelope.
 *
 * It stands in the result object like any value. JSON.stringify writes a unique token in its
 * place; `renderBody` then splits the serialized response at the token and streams the
 * pieces there, each escaped as JSON string content, at the client's pace (pacedStream).
 */
export class StreamedText {
  readonly token = `mcp-streamed-text:${crypto.randomUUID()}`;
  private released = false;

  constructor(
    /** The raw text, in pieces (a sync generator is pulled one piece per stream read). */
    readonly pieces: () => Iterable<string>,
    /** Told the UTF-8 size of the whole text once every piece was sent. */
    readonly onComplete?: (bytes: number) => void,
    /** Told once that the text is done with: sent, cut, or never sent at all (frees its download slot). */
    private readonly onRelease?: () => void,
  ) {}

  toJSON(): string {
    return this.token;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.onRelease?.();
  }
}

export interface RenderOptions {
  /** The response's connection, so the stream follows the client's pace. */
  socket: ResponseSocket | undefined;
  /** Aborted when the server stops for good (see DrainState.cut). */
  cut: AbortSignal;
  onError: (error: unknown) => void;
  /** Told the bytes handed to the server once the stream has ended: produced whole, cancelled, or cut. */
  onEnd?: (bytes: number) => void;
}

/**
 * A serialized response: a plain string, or a stream when it holds StreamedText values. Every
 * StreamedText given is released: at once when the response does not hold it, else when the
 * stream ends.
 */
export function renderBody(serialized: string, streamed: readonly StreamedText[], options: RenderOptions): string | ReadableStream<Uint8Array> {
  const present = streamed.filter((text) => serialized.includes(JSON.stringify(text.token)));
  for (const text of streamed) if (!present.includes(text)) text.release();
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

  return pacedStream(pieces, {
    socket: options.socket,
    cut: options.cut,
    onError: options.onError,
    onEnd: (bytes) => {
      for (const text of present) text.release();
      options.onEnd?.(bytes);
    },
  });
}
