import { csvDocument, csvRows } from "../domain/csv.ts";
import { DirectoryExportStore } from "../storage/stores/directoryExportStore.ts";
import { escapeControls } from "../domain/text.ts";
import { parseCommandArgs, UsageError } from "./cliSupport.ts";
import { openDirectoryWriter } from "./directoryStores.ts";
import { BROKER_CSV_HEADER, brokerCsvRows, brokerRecordOf, REVIEW_CSV_HEADER, reviewCsvRow, reviewRecordOf } from "./exportRecords.ts";
import { DATABASE_FLAGS, DATABASE_FLAGS_HELP } from "./workspaceStores.ts";

export const EXPORT_HELP = `Usage: broker-directory export brokers|reviews [--format csv|ndjson] [--output FILE]

Writes the whole directory's brokers (with their offices) or reviews, published and unpublished
alike, in the columns 'import' reads, so importing the file back reports every row unchanged.
CSV cells that begin with = + - @ get a leading ' (spreadsheets show it as text; import removes it).

  --format csv|ndjson  default csv
  --output FILE        write to FILE (default: standard output)
  ${DATABASE_FLAGS_HELP.replace("\n", "\n  ")}`;

/** Rows read per page (keyset by id): memory stays flat whatever the directory's size. */
const PAGE = 1_000;

export async function exportCommand(args: string[], env: Record<string, string | undefined>): Promise<void> {
  const { values, positionals } = parseCommandArgs(args, { format: { type: "string" }, output: { type: "string", short: "o" }, ...DATABASE_FLAGS }, "export", true);
  if (values.help) return console.log(EXPORT_HELP);
  const [kind] = positionals;
  if ((kind !== "brokers" && kind !== "reviews") || positionals.length > 1) {
    throw new UsageError("Name what to export: export brokers, or export reviews.\nRun 'export --help' for usage.");
  }
  const format = values.format ?? "csv";
  if (format !== "csv" && format !== "ndjson") throw new UsageError(`--format must be csv or ndjson (got ${JSON.stringify(format)}).`);

  const writer = await openDirectoryWriter(values, env);
  const out = values.output === undefined ? Bun.stdout.writer() : Bun.file(values.output).writer();
  try {
    const store = new DirectoryExportStore(writer.x);
    if (format === "csv") out.write(csvDocument(kind === "brokers" ? BROKER_CSV_HEADER : REVIEW_CSV_HEADER, []));
    // JSON.stringify leaves C1 and bidi controls raw: escaped, as every JSON the CLI prints.
    const ndjson = (record: unknown) => `${escapeControls(JSON.stringify(record))}\n`;
    for (let after = 0; ; ) {
      if (kind === "brokers") {
        const page = await store.brokerPage(after, PAGE);
        if (page.length === 0) break;
        out.write(format === "csv" ? csvRows(page.flatMap(brokerCsvRows)) : page.map((b) => ndjson(brokerRecordOf(b))).join(""));
        after = page.at(-1)!.broker.id;
      } else {
        const page = await store.reviewPage(after, PAGE);
        if (page.length === 0) break;
        out.write(format === "csv" ? csvRows(page.map(reviewCsvRow)) : page.map((r) => ndjson(reviewRecordOf(r))).join(""));
        after = page.at(-1)!.review.id;
      }
      await out.flush();
    }
  } catch (error) {
    throw writer.explain(error);
  } finally {
    await out.end();
    await writer.close();
  }
}
