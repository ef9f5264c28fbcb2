import { heapStats } from "bun:jsc";
import { expect, test } from "bun:test";
import { readReviewImport } from "../../src/importing/reviewImport.ts";

/**
 * The import streams: memory stays flat however long the file. 200,000 review rows (about 90 MB
 * of CSV, made on the fly and never held whole) go through the reader; once it has warmed up,
 * live memory grows by far less than what is read, and what is still alive at the end (after a
 * full collection) is a small fraction of the input. It takes a few seconds: fewer rows
 * would not separate "streams" from "holds the file" above the garbage collector's slack.
 */
const ROWS = 200_000;
const CONTENT = "They compared six carriers for our home and two cars and explained every difference clearly. ".repeat(4);

const mb = (bytes: number) => bytes / 1024 / 1024;

/** What the program still holds after a full collection: JS objects, and buffers (typed arrays) outside the heap. */
function liveBytes(): number {
  Bun.gc(true);
  const { heapSize, extraMemorySize } = heapStats();
  return heapSize + extraMemorySize;
}

test("200,000 CSV rows go through with memory flat", async () => {
  let inputBytes = 0;
  async function* file() {
    const encoder = new TextEncoder();
    let text = "externalId,brokerExternalId,rating,title,content,authorName,createdAt\n";
    for (let i = 1; i <= ROWS; i++) {
      text += `rv-${i},B-${i % 5000},${(i % 5) + 1},Title ${i},"${CONTENT}",Marie Tremblay,2025-03-04T17:22:05Z\n`;
      if (text.length > 64 * 1024 || i === ROWS) {
        inputBytes += text.length;
        yield encoder.encode(text);
        text = "";
      }
    }
  }

  const liveBefore = liveBytes();
  let records = 0;
  let warm: { live: number; input: number } | undefined;
  let late: { live: number; input: number } | undefined;
  for await (const event of readReviewImport({ bytes: file() })) {
    if (event.kind !== "record") throw new Error(`row refused: ${JSON.stringify(event)}`);
    records++;
    // Live memory (after a full collection), not the process's RSS: in a whole suite's process the
    // RSS moves with other files' garbage and the allocator's slack (it failed a CI run so).
    if (records === ROWS / 4) warm = { live: liveBytes(), input: inputBytes };
    if (records === (ROWS * 3) / 4) late = { live: liveBytes(), input: inputBytes };
  }
  expect(records).toBe(ROWS);
  expect(mb(inputBytes)).toBeGreaterThan(80);

  // Holding the rows would keep at least what was read between the two samples alive; the
  // duplicate tracker (12 bytes a key) and the reader's buffers stay far under a quarter of it.
  expect(mb(late!.live - warm!.live)).toBeLessThan(mb(late!.input - warm!.input) / 4);
  expect(mb(liveBytes() - liveBefore)).toBeLessThan(mb(inputBytes) / 3);
}, 60_000);
