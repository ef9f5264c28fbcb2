import { readBrokerImport } from "../../importing/brokerImport.ts";
import type { ImportInput } from "../../importing/byteSource.ts";
import type { ImportEvent } from "../../importing/importEvent.ts";
import { ImportTally, type ImportSummary, type WriteCounts } from "../../importing/importSummary.ts";
import { KeyTracker } from "../../importing/keyTracker.ts";
import { readReviewImport } from "../../importing/reviewImport.ts";
import type { RowError } from "../../importing/rowError.ts";
import type { BrokerRecord, ReviewRecord } from "../../schemas/directoryRecords.ts";
import type { Executor } from "../executor.ts";
import { isBusyLock, storageFaultOf } from "../storageFault.ts";
import { BrokerImportStore } from "./brokerImportStore.ts";
import type { ImportItem, ImportWrite, RowOutcome } from "./importBatch.ts";
import { ReviewImportStore } from "./reviewImportStore.ts";

export type ImportKind = "brokers" | "reviews";

/**
 * Records a batch (one transaction) holds. A batch is the unit a crash rolls back to and the
 * lock a serving process's writes wait behind: 500 brokers (with ~600 offices and ~2,000 lines)
 * or 2,000 reviews are each a few tens of milliseconds of writing.
 */
export const BATCH_RECORDS: Readonly<Record<ImportKind, number>> = { brokers: 500, reviews: 2_000 };

/** One line of `--report`: what became of a record (or, with --sync, of a broker the file no longer lists). */
export type ReportLine = RowOutcome | { line: number; outcome: "failed"; errors: RowError[] } | { key: string; outcome: "unpublished"; id: number };

export interface ImportRunOptions {
  kind: ImportKind;
  input: ImportInput;
  how: ImportWrite;
  /** Brokers only: unpublish those with an externalId the file no longer lists. */
  sync: boolean;
  onReport?: (line: ReportLine) => void;
  /** Called after each batch with the records read so far. */
  onProgress?: (records: number) => void;
}

export interface ImportRunResult {
  summary: ImportSummary;
  /** Why --sync unpublished nothing though asked to, if it did not run. */
  syncSkipped?: string;
}

interface Writer<T> {
  batch(items: readonly ImportItem<T>[], how: ImportWrite): Promise<RowOutcome[]>;
}

/**
 * Reads the file and writes it batch by batch (issue 27): bad rows are reported and never stop
 * good ones; a batch the database refuses as a whole (a constraint no check foresaw) is written
 * again one record at a time, so only the record at fault fails. A storage fault (disk full,
 * PostgreSQL gone) ends the run: what was committed stays, and a re-run finishes the job.
 */
export async function runImport(x: Executor, options: ImportRunOptions): Promise<ImportRunResult> {
  if (options.kind === "brokers") {
    const store = new BrokerImportStore(x);
    const listed = options.sync ? new KeyTracker() : undefined;
    // Set before the first record: readBrokerImport tells the format first.
    const events = readBrokerImport(options.input, (format) => (options.how.officePhones = format !== "csv"));
    const result = await writeEvents(events, store, options, (record: BrokerRecord, line) => {
      if (listed && record.externalId !== null) listed.seen(record.externalId, line);
    });
    if (!listed) return result;
    if (result.summary.failed > 0) {
      return { ...result, syncSkipped: `${result.summary.failed} record(s) failed, and a failed row may be a broker the file still lists: fix them and run again to --sync` };
    }
    if (listed.full) return { ...result, syncSkipped: "the file lists more externalIds than an import remembers (4,000,000)" };
    const unpublished = await store.unpublishUnlisted((externalId) => listed.seen(externalId, 1) !== undefined, options.how);
    for (const broker of unpublished) options.onReport?.({ key: broker.externalId, outcome: "unpublished", id: broker.id });
    result.summary.unpublished = unpublished.length;
    return result;
  }
  return writeEvents(readReviewImport(options.input), new ReviewImportStore(x), options, () => {});
}

async function writeEvents<T>(
  events: AsyncIterable<ImportEvent<T>>,
  store: Writer<T>,
  options: ImportRunOptions,
  onRecord: (record: T, line: number) => void,
): Promise<ImportRunResult> {
  const tally = new ImportTally();
  const counts: WriteCounts = { created: 0, updated: 0, unchanged: 0, unpublished: 0 };
  let pending: ImportEvent<T>[] = [];
  let pendingRecords = 0;
  let read = 0;

  const flush = async () => {
    const items = pending.flatMap((event) => (event.kind === "record" ? [{ line: event.line, record: event.record }] : []));
    const outcomes = items.length > 0 ? await writeBatch(store, items, options.how) : [];
    let next = 0;
    // In file order: the summary's errors and the report's lines follow the file.
    for (const event of pending) {
      if (event.kind === "failed") {
        tally.observe(event);
        options.onReport?.({ line: event.line, outcome: "failed", errors: event.errors });
        continue;
      }
      const outcome = outcomes[next++]!;
      if (outcome.outcome === "failed") tally.observe({ kind: "failed", line: outcome.line, errors: outcome.errors });
      else {
        counts[outcome.outcome]++;
        tally.observe(event);
      }
      options.onReport?.(outcome);
    }
    pending = [];
    pendingRecords = 0;
    options.onProgress?.(read);
  };

  for await (const event of events) {
    read++;
    // A key given again goes in a batch after the one holding its earlier record: the last wins.
    if (event.kind === "record" && event.duplicate && pendingRecords > 0) await flush();
    pending.push(event);
    if (event.kind === "record") {
      pendingRecords++;
      onRecord(event.record, event.line);
    }
    if (pendingRecords >= BATCH_RECORDS[options.kind] || pending.length >= 4 * BATCH_RECORDS[options.kind]) await flush();
  }
  await flush();
  return { summary: tally.summary(counts) };
}

async function writeBatch<T>(store: Writer<T>, items: readonly ImportItem<T>[], how: ImportWrite): Promise<RowOutcome[]> {
  try {
    return await store.batch(items, how);
  } catch (error) {
    // The database, not the record: every later batch would fail the same way.
    if (storageFaultOf(error) || isBusyLock(error)) throw error;
    if (items.length > 1) {
      const outcomes: RowOutcome[] = [];
      for (const item of items) outcomes.push(...(await writeBatch(store, [item], how)));
      return outcomes;
    }
    const { line } = items[0]!;
    const message = `could not be stored: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`;
    return [{ line, key: "", outcome: "failed", errors: [{ line, field: "", message }] }];
  }
}
