/** Where an import's bytes come from: a file, standard input, or any byte stream (a test's). */
export type ByteStream = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

export interface ImportInput {
  bytes: ByteStream;
  /** The file's name or path, whose extension is checked against the content; none for stdin. */
  name?: string;
}

/** The file at `path`, streamed (never read whole), or standard input for "-". */
export function importInputFromPath(path: string): ImportInput {
  return path === "-" ? { bytes: Bun.stdin.stream() } : { bytes: Bun.file(path).stream(), name: path };
}

/** The chunks of a byte stream; stopping early cancels the stream, so the file is let go. */
async function* chunksOf(bytes: ByteStream): AsyncGenerator<Uint8Array> {
  if (!("getReader" in bytes)) {
    yield* bytes;
    return;
  }
  const reader = bytes.getReader();
  let done = false;
  try {
    while (!done) {
      const next = await reader.read();
      done = next.done;
      if (next.value) yield next.value;
    }
  } finally {
    if (!done) await reader.cancel();
    reader.releaseLock();
  }
}

/**
 * The first `size` bytes (fewer if the input is shorter), to tell the format by, and every
 * chunk of the input, those included.
 */
export async function peekBytes(bytes: ByteStream, size: number): Promise<{ head: Uint8Array; chunks: AsyncGenerator<Uint8Array> }> {
  const source = chunksOf(bytes);
  const read: Uint8Array[] = [];
  let length = 0;
  while (length < size) {
    const next = await source.next();
    if (next.done) break;
    read.push(next.value);
    length += next.value.length;
  }
  const head = new Uint8Array(length);
  let offset = 0;
  for (const chunk of read) {
    head.set(chunk, offset);
    offset += chunk.length;
  }
  async function* chunks() {
    yield* read.splice(0);
    yield* source;
  }
  return { head: head.subarray(0, size), chunks: chunks() };
}

/**
 * The input as text, chunk by chunk. A UTF-8 byte-order mark is dropped; bytes that are not
 * UTF-8 become U+FFFD, which the record readers report with the line they are on.
 */
export async function* decodeText(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8");
  for await (const chunk of chunks) {
    const text = decoder.decode(chunk, { stream: true });
    if (text !== "") yield text;
  }
  const rest = decoder.decode();
  if (rest !== "") yield rest;
}
