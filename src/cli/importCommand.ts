import { basename } from "node:path";
import { closeSync, openSync, statSync, writeSync } from "node:fs";
import { importInputFromPath, type ImportInput } from "../importing/byteSource.ts";
import type { ImportSummary } from "../importing/importSummary.ts";
import { formatRowError, ImportFileError } from "../importing/rowError.ts";
import { CLI_ACTOR } from "../storage/stores/directoryAuditStore.ts";
import { DatabaseNotWritableError, isBusyLock, storageFaultOf } from "../storage/storageFault.ts";
import { parseCommandArgs, plainFlag, printJson, printableLines, RefusedError, UsageError } from "./cliSupport.ts";
import { openDirectoryWriter } from "./directoryStores.ts";
import { ImportProgress } from "./importProgress.ts";
import { runImport, type ImportKind, type ImportRunResult, type ReportLine } from "../storage/stores/importRun.ts";
import { DATABASE_FLAGS, DATABASE_FLAGS_HELP } from "./workspaceStores.ts";

export const IMPORT_HELP = `Usage: broker-directory import brokers|reviews FILE [options]

Upserts the brokers (with their offices) or the reviews of a CSV, NDJSON or JSON file into the
directory; FILE - reads standard input. Brokers are found by their externalId, else their slug;
reviews by their externalId, attached to a broker by brokerExternalId or brokerSlug. Columns,
formats and rules: the manual's operations page, "Importing your directory".

  --dry-run          check every row against the directory and report, writing nothing
  --sync             brokers only: unpublish (never delete) the brokers with an externalId
                     that the file no longer lists; brokers without one are left alone
  --report FILE      write what became of each row to FILE, one JSON object a line
  --json             print the summary as one JSON object
  --quiet            no progress lines on stderr
  --all-or-nothing   write nothing unless every row is good (reads FILE twice: not with -)
  --reason TEXT      why, for the audit trail (default "import brokers|reviews FILE")
  ${DATABASE_FLAGS_HELP.replace("\n", "\n  ")}

Re-running a file is safe: rows already in the directory are reported unchanged and not
written. Exit code 0 when every row was stored, 1 when some were refused (the others are
stored, unless --all-or-nothing), 2 for a mistake in the command.`;

const KINDS: readonly ImportKind[] = ["brokers", "reviews"];
/** Report lines kept before they are written out. */
const REPORT_BUFFER = 64 * 1024;

export async function importCommand(args: string[], env: Record<string, string | undefined>): Promise<void> {
  const { values, positionals } = parseCommandArgs(
    args,
    {
      "dry-run": { type: "boolean" },
      sync: { type: "boolean" },
      report: { type: "string" },
      json: { type: "boolean" },
      quiet: { type: "boolean" },
      "all-or-nothing": { type: "boolean" },
      reason: { type: "string" },
      ...DATABASE_FLAGS,
    },
    "import",
    true,
  );
  if (values.help) return console.log(IMPORT_HELP);
  const [kind, file] = positionals;
  if (!KINDS.includes(kind as ImportKind) || file === undefined || positionals.length > 2) {
    throw new UsageError("Name what to import and the file: import brokers FILE, or import reviews FILE (- for standard input).\nRun 'import --help' for usage.");
  }
  const what = kind as ImportKind;
  if (values.sync && what !== "brokers") throw new UsageError("--sync is for brokers only: reviews are never unpublished by an import.");
  if (values["all-or-nothing"] && file === "-") throw new UsageError("--all-or-nothing reads the file twice (check, then write): give a file, not - (standard input).");
  const size = fileSize(file);
  const reason = plainFlag(values.reason, "reason") ?? `import ${what} ${file === "-" ? "(standard input)" : basename(file)}`;
  const report = values.report === undefined ? undefined : new ReportFile(values.report);

  const writer = await openDirectoryWriter(values, env);
  const started = performance.now();
  let result: ImportRunResult;
  let wrote = !values["dry-run"];
  try {
    const pass = async (write: boolean, onReport?: (line: ReportLine) => void) => {
      const { input, bytesRead } = countedInput(file);
      const progress = new ImportProgress(`import ${what}`, bytesRead, size, values.quiet ?? false);
      const how = { actor: CLI_ACTOR, reason, now: Date.now(), write };
      const done = await runImport(writer.x, { kind: what, input, how, sync: values.sync ?? false, onReport, onProgress: (rows) => progress.update(rows) });
      progress.done();
      return done;
    };
    if (values["all-or-nothing"] && wrote) {
      result = await pass(false);
      if (result.summary.failed > 0) wrote = false;
      else result = await pass(true, report?.add);
    } else result = await pass(wrote, report?.add);
  } catch (error) {
    if (error instanceof ImportFileError) throw new RefusedError(`${file === "-" ? "standard input" : file}: ${error.message}`);
    const fault = storageFaultOf(error) ?? (isBusyLock(error) ? "busy: another process held the write lock too long" : undefined);
    if (fault && !(writer.explain(error) instanceof DatabaseNotWritableError)) {
      // One line, never a stack: what was committed stays (whole batches), and a re-run finishes the job.
      throw new RefusedError(`The database refused the import's writes (${fault}): ${error instanceof Error ? error.message.split("\n")[0] : String(error)}. Every batch written before stays; run the same command again to finish.`);
    }
    throw writer.explain(error);
  } finally {
    report?.close();
    await writer.close();
  }
  const { summary, syncSkipped } = result;
  if (values.json) printJson(summary);
  else console.log(printableLines(humanSummary(what, file, writer.target, summary, { wrote, seconds: (performance.now() - started) / 1000, syncSkipped })));
  if (summary.failed > 0) {
    throw new RefusedError(
      wrote ? `${summary.failed} record(s) refused; every other row was stored.` : `${summary.failed} record(s) refused: nothing was written.`,
    );
  }
}

function humanSummary(kind: ImportKind, file: string, target: string, s: ImportSummary, run: { wrote: boolean; seconds: number; syncSkipped?: string }): string {
  const source = file === "-" ? "standard input" : file;
  const head = run.wrote ? `Imported ${kind} from ${source} into ${target}` : `Checked ${kind} from ${source} against ${target} (nothing written)`;
  const lines = [
    `${head} in ${run.seconds.toFixed(1)} s: ${s.created} created, ${s.updated} updated, ${s.unchanged} unchanged, ${s.unpublished} unpublished, ${s.failed} failed.`,
    ...s.errors.map(formatRowError),
  ];
  if (s.errorsOmitted > 0) lines.push(`… and ${s.errorsOmitted} more (all of them with --report FILE).`);
  if (run.syncSkipped) lines.push(`--sync unpublished nothing: ${run.syncSkipped}.`);
  return lines.join("\n");
}

/** The file's size for the progress's share and ETA (none for standard input); a missing file is one line, exit 1. */
function fileSize(file: string): number | undefined {
  if (file === "-") return undefined;
  let stat;
  try {
    stat = statSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new RefusedError(code === "ENOENT" ? `${file}: no such file.` : `${file}: cannot be read (${code ?? String(error)}).`);
  }
  if (stat.isDirectory()) throw new RefusedError(`${file} is a folder: name a CSV, NDJSON or JSON file.`);
  return stat.isFile() ? stat.size : undefined;
}

/** The input, counting the bytes read (for progress). */
function countedInput(file: string): { input: ImportInput; bytesRead: () => number } {
  const { bytes, name } = importInputFromPath(file);
  let read = 0;
  async function* counted() {
    for await (const chunk of bytes as AsyncIterable<Uint8Array>) {
      read += chunk.length;
      yield chunk;
    }
  }
  return { input: { bytes: counted(), name }, bytesRead: () => read };
}

/** `--report FILE`: one JSON object a line, owner-only (it names the operator's records), written as it goes. */
class ReportFile {
  private readonly fd: number;
  private buffer = "";

  constructor(private readonly path: string) {
    try {
      this.fd = openSync(path, "w", 0o600);
    } catch (error) {
      throw new RefusedError(`--report ${path}: cannot be written (${(error as NodeJS.ErrnoException).code ?? String(error)}).`);
    }
  }

  add = (line: ReportLine): void => {
    // A dry run numbers nothing: a record it would create has no id yet.
    this.buffer += `${JSON.stringify(line, (key, value: unknown) => (key === "id" && value === 0 ? undefined : value))}\n`;
    if (this.buffer.length > REPORT_BUFFER) this.flush();
  };

  close(): void {
    this.flush();
    closeSync(this.fd);
  }

  private flush() {
    if (this.buffer !== "") writeSync(this.fd, this.buffer);
    this.buffer = "";
  }
}
