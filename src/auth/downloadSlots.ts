import { SlotCounter } from "../cache/slotCounter.ts";

/** Large downloads (broker://directory, a leads CSV) one key may have in progress at once, by default. */
export const DEFAULT_DOWNLOADS_PER_KEY = 2;
/** Keys with a download in progress at most: past it every key is refused until one ends. */
const MAX_DOWNLOADING_KEYS = 10_000;

/**
 * Counts the large downloads in progress per key (per console session), in this process. A
 * download is paced by its client (see pacedStream), so each holds little memory, but it holds
 * a connection and a producer for as long as the client takes: the cap keeps one key from
 * opening hundreds. Entries exist only while a download runs, and there are at most
 * MAX_DOWNLOADING_KEYS of them.
 */
export class DownloadSlots {
  private readonly slots: SlotCounter;

  constructor(readonly perKey: number = DEFAULT_DOWNLOADS_PER_KEY) {
    this.slots = new SlotCounter(perKey, MAX_DOWNLOADING_KEYS);
  }

  /** A slot for `bucket` (a key id), or undefined when it has none left; call the returned function once, when the download ends. */
  take(bucket: string): (() => void) | undefined {
    const slot = this.slots.take(bucket);
    return typeof slot === "function" ? slot : undefined;
  }

  /** The refusal's words, the same on every surface. */
  refusalMessage(): string {
    return `This key already has ${this.perKey} large download${this.perKey === 1 ? "" : "s"} in progress (broker://directory reads, leads CSV exports), the most it may have at once. Retry when one has finished.`;
  }
}

/** Seconds a refused download is told to wait before it retries (a download takes seconds). */
export const DOWNLOAD_RETRY_AFTER_SECONDS = 5;
