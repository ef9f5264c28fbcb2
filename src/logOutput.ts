/**
 * Where log lines go when they cannot be written. Logging never takes the server down: a full
 * disk (ENOSPC), a pipe whose reader has gone (EPIPE) or a closed terminal make the write
 * throw, in the middle of a request or from the flush timer, and an uncaught throw there ends
 * the process (seen on 2026-11-25, when the bench filled the disk). Such lines are dropped and
 * counted (`broker_directory_log_lines_lost_total` on /metrics), and the first loss is reported
 * once on standard error, which may still work when standard output does not (a log file on a
 * full disk, errors on a terminal).
 */
let linesLost = 0;
let lossReported = false;

/** Log lines dropped so far because their output could not be written. */
export function logLinesLost(): number {
  return linesLost;
}

/**
 * Writes `text` (whole lines) to `stream`; on failure counts its lines as lost instead of
 * throwing. A write fails either at once (a throw) or later (its callback's error, then the
 * stream's "error" event); each failed write is counted once.
 */
export function writeOrCount(stream: NodeJS.WriteStream, text: string): void {
  let failed = false;
  const fail = (error: unknown) => {
    if (failed) return;
    failed = true;
    lose(text, error);
  };
  try {
    stream.write(text, (error) => error && fail(error));
  } catch (error) {
    fail(error);
  }
}

// Without a listener, a stream's "error" event is thrown, out of any request. The write's own
// callback has counted what was lost; this only makes sure the failure is reported.
for (const stream of [process.stdout, process.stderr]) stream.on("error", (error: unknown) => lose("", error));

function lose(text: string, error: unknown): void {
  let lines = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) lines++;
  linesLost += lines;
  if (lossReported) return;
  lossReported = true;
  const reason = error instanceof Error ? error.message : String(error);
  const notice = {
    time: new Date().toISOString(),
    level: "error",
    msg: "log lines lost: their output cannot be written; later losses are only counted (broker_directory_log_lines_lost_total)",
    error: reason.slice(0, 200),
  };
  try {
    process.stderr.write(`${JSON.stringify(notice)}\n`);
  } catch {
    // Standard error cannot be written either: the count on /metrics is all that is left.
  }
}
