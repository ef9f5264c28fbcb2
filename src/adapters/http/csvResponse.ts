import { DOWNLOAD_RETRY_AFTER_SECONDS, type DownloadSlots } from "../../auth/downloadSlots.ts";
import type { RateDecision } from "../../auth/rateLimiter.ts";
import type { Awaitable } from "../../storage/ports.ts";
import { errorResponse } from "./json.ts";
import { pacedStream } from "./pacedStream.ts";
import type { RequestInfo } from "./requestInfo.ts";

/** One page of the leads export, as the procedure answers it. */
export interface CsvPage {
  filename: string;
  csv: string;
  nextCursor: string | null;
}

export interface CsvDownload {
  /** Download slots, and whose: a key id or a console session. */
  slots: DownloadSlots;
  bucket: string;
  /** Reads a page: the first with no cursor. Errors of the first are the caller's to answer. */
  readPage(cursor: string | undefined): Promise<CsvPage>;
  /** Charges one rate-limit unit for a further page. */
  charge(): Awaitable<RateDecision>;
  info: RequestInfo;
  cut: AbortSignal;
  onError(error: unknown): void;
  headers: Record<string, string>;
  /**
   * A HEAD request: the first page is read (its status and headers are the GET's) but nothing is
   * streamed. Bun 1.3 neither sends nor cancels a streamed body for HEAD, so a stream would stay
   * open, holding a download slot, forever.
   */
  headOnly?: boolean;
}

/**
 * A CSV export as a download. The first page is read before answering (its errors answer as
 * errors); a file of one page goes out as it is, a longer one is streamed page by page at
 * the client's pace (pacedStream), each further page charged one unit of the caller's rate
 * limit as it is read. When the budget is spent the stream waits for the window to free a
 * unit rather than cut the file: an export slows to its key's rate, it never ends short. A
 * download holds one of the caller's download slots until it ends.
 */
export async function csvDownload(download: CsvDownload): Promise<Response> {
  const release = download.slots.take(download.bucket);
  if (!release) {
    return errorResponse(download.info, "too_many_downloads", download.slots.refusalMessage(), { ...download.headers, "Retry-After": String(DOWNLOAD_RETRY_AFTER_SECONDS) });
  }
  let first: CsvPage;
  try {
    first = await download.readPage(undefined);
  } catch (error) {
    release();
    throw error;
  }
  if (first.nextCursor === null) {
    release();
    return csvResponse(first.filename, first.csv, download.headers);
  }
  if (download.headOnly) {
    release();
    // What the GET would say: a streamed file of unknown length (an empty body would make Bun say Content-Length: 0).
    return csvResponse(first.filename, null, { ...download.headers, "Transfer-Encoding": "chunked" });
  }

  let ended!: (bytes: number) => void;
  // A streamed body outlives the handler: graceful stop waits for it (see InFlightResponses).
  download.info.streaming = new Promise<number>((resolve) => (ended = resolve));
  async function* pages(): AsyncGenerator<string> {
    yield first.csv;
    for (let cursor = first.nextCursor; cursor !== null; ) {
      await paid(download.charge, download.cut);
      const page = await download.readPage(cursor);
      yield page.csv;
      cursor = page.nextCursor;
    }
  }
  const body = pacedStream(pages, {
    socket: download.info.socket,
    cut: download.cut,
    onError: download.onError,
    onEnd: (bytes) => {
      release();
      ended(bytes);
    },
  });
  return csvResponse(first.filename, body, download.headers);
}

/** Spends one unit, waiting for the window to free one when the budget is spent. */
async function paid(charge: () => Awaitable<RateDecision>, cut: AbortSignal): Promise<void> {
  for (let rate = await charge(); !rate.allowed && !cut.aborted; rate = await charge()) {
    await new Promise((resolve) => setTimeout(resolve, rate.resetSeconds * 1000));
  }
}

/** A CSV file answer (the leads export): a download, never cached, never sniffed as HTML. */
function csvResponse(filename: string, body: string | ReadableStream<Uint8Array> | null, headers: Record<string, string>): Response {
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8; header=present",
      // The filename is ours (leads-YYYY-MM-DD.csv), never the caller's text.
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
      // Every lead the filters keep is in the file (it was cut at 20,000 before exports were paged).
      "X-Export-Truncated": "false",
      ...headers,
    },
  });
}
