/** How often progress is shown: a terminal line is rewritten often; a log (not a terminal) gets a line now and then. */
const TERMINAL_EVERY_MS = 250;
const LOG_EVERY_MS = 5_000;

const count = (n: number) => Math.round(n).toLocaleString("en-CA");
const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, "0")}`;

/**
 * An import's progress on stderr (issue 27): rows, rows a second and, when the file's size is
 * known, the share read and the time left. On a terminal one line, rewritten; otherwise a plain
 * line every few seconds (a log or CI keeps them); nothing with --quiet.
 */
export class ImportProgress {
  private readonly started = performance.now();
  private lastShown = Number.NEGATIVE_INFINITY;
  private shownOnTerminal = false;

  constructor(
    private readonly what: string,
    private readonly bytesRead: () => number,
    private readonly totalBytes: number | undefined,
    private readonly quiet: boolean,
    private readonly terminal = process.stderr.isTTY === true,
    private readonly write: (text: string) => void = (text) => process.stderr.write(text),
  ) {}

  update(rows: number): void {
    if (this.quiet) return;
    const now = performance.now();
    if (now - this.lastShown < (this.terminal ? TERMINAL_EVERY_MS : LOG_EVERY_MS)) return;
    this.lastShown = now;
    const seconds = (now - this.started) / 1000;
    let line = `${this.what}: ${count(rows)} rows, ${count(rows / Math.max(seconds, 0.001))} rows/s`;
    if (this.totalBytes) {
      const share = Math.min(1, this.bytesRead() / this.totalBytes);
      line += `, ${Math.floor(share * 100)}%`;
      if (share > 0.01) line += `, ETA ${clock((seconds / share) * (1 - share))}`;
    }
    if (this.terminal) {
      this.write(`\r\x1b[2K${line}`);
      this.shownOnTerminal = true;
    } else this.write(`${line}\n`);
  }

  /** Ends the rewritten line, so what follows starts on its own. */
  done(): void {
    if (this.shownOnTerminal) this.write("\n");
  }
}
