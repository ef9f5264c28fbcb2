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

/** A serialized response: a plain string, or a stream when it holds StreamedText values. */
export function renderBody(serialized: string, streamed: readonly StreamedText[], onError: (error: unknown) => void): string | ReadableStream<Uint8Array> {
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

  const iterator = pieces();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      try {
        const next = iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      } catch (error) {
        // Headers are gone already: all we can do is cut the response short, and log why.
        onError(error);
        controller.error(error);
      }
    },
    cancel() {
      iterator.return(undefined);
    },
  });
}
