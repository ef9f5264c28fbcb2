/**
 * Physical lines of a text that arrives in chunks, numbered from 1, with "\r\n" and "\n" as
 * line ends. A line longer than `max` characters is never held: its text is dropped as it
 * streams past (only whether it holds an odd number of double quotes is kept, for CSV's
 * quoting) and it comes out as `tooLong`.
 */
export type PhysicalLine = { line: number; text: string; tooLong?: undefined } | { line: number; tooLong: true; oddQuotes: boolean };

/** How many times `char` occurs in the text between `from` and `to`. */
export function countChar(text: string, char: string, from = 0, to = text.length): number {
  let count = 0;
  for (let at = text.indexOf(char, from); at !== -1 && at < to; at = text.indexOf(char, at + 1)) count++;
  return count;
}

export class LineSplitter {
  private nextLine = 1;
  private pending = "";
  private skipping = false;
  private skippedQuotes = 0;

  constructor(private readonly max: number) {}

  /** The lines the chunk ends (the start of an unfinished one is kept for the next chunk). */
  push(chunk: string): PhysicalLine[] {
    const lines: PhysicalLine[] = [];
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf("\n", start);
      const end = newline === -1 ? chunk.length : newline;
      if (this.skipping) this.skippedQuotes += countChar(chunk, '"', start, end);
      else if (this.pending.length + end - start > this.max) {
        this.skipping = true;
        this.skippedQuotes = countChar(this.pending, '"') + countChar(chunk, '"', start, end);
        this.pending = "";
      } else this.pending = this.pending === "" ? chunk.slice(start, end) : this.pending + chunk.slice(start, end);
      if (newline === -1) return lines;
      lines.push(this.finishLine());
      start = newline + 1;
    }
  }

  /** The last line, when the text does not end with a line break. */
  end(): PhysicalLine[] {
    return this.pending !== "" || this.skipping ? [this.finishLine()] : [];
  }

  private finishLine(): PhysicalLine {
    const line = this.nextLine++;
    if (this.skipping) {
      this.skipping = false;
      return { line, tooLong: true, oddQuotes: this.skippedQuotes % 2 === 1 };
    }
    const text = this.pending.endsWith("\r") ? this.pending.slice(0, -1) : this.pending;
    this.pending = "";
    return { line, text };
  }
}
