/**
 * The index's files written a piece at a time (src/storage/search/fileBackedWriter.ts), texts by
 * rank kept in one read at offsets (rankTexts.ts) and the answers rendered in them
 * (renderedAnswers.ts): bytes read back exactly at their offsets, texts larger than the staging
 * buffer whole, bounds kept, no file name ever left behind, nothing kept where no file can be written.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileBackedWriter } from "../../src/storage/search/fileBackedWriter.ts";
import { RankTexts } from "../../src/storage/search/rankTexts.ts";
import { RenderedAnswers } from "../../src/storage/search/renderedAnswers.ts";

const dir = mkdtempSync(join(tmpdir(), "file-backed-writer-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const decode = (bytes: Uint8Array | undefined) => (bytes === undefined ? undefined : new TextDecoder().decode(bytes));

test("texts and bytes read back from the mapped file at the offsets written, and the file has no name left", () => {
  const writer = FileBackedWriter.open(dir)!;
  const big = "é🏠".repeat(60_000); // 360,000 bytes of UTF-8: more than the staging buffer
  const pieces = ["Acme", "", "Nguyễn 李", big, "tail"];
  const offsets = pieces.map((text) => writer.writeText(text));
  const raw = writer.write(new Uint8Array([0, 255, 10]));
  const mapped = writer.finish()!;
  expect(mapped).toBeDefined();
  const lengths = pieces.map((text) => Buffer.byteLength(text));
  pieces.forEach((text, i) => expect(decode(mapped.subarray(offsets[i], offsets[i]! + lengths[i]!))).toBe(text));
  expect([...mapped.subarray(raw, raw + 3)]).toEqual([0, 255, 10]);
  expect(mapped.byteLength).toBe(raw + 3);
  expect(readdirSync(dir)).toEqual([]);
});

test("an abandoned file goes; no writer where there is no directory to write in", () => {
  const writer = FileBackedWriter.open(dir)!;
  writer.writeText("x".repeat(10_000));
  expect(readdirSync(dir).length).toBe(1);
  writer.abandon();
  expect(readdirSync(dir)).toEqual([]);
  expect(FileBackedWriter.open(undefined)).toBeUndefined();
  expect(FileBackedWriter.open(join(dir, "no-such-directory"))).toBeUndefined();
  // Nothing written: nothing to map.
  expect(FileBackedWriter.open(dir)!.finish()).toBeUndefined();
  expect(readdirSync(dir)).toEqual([]);
});

test("a file kept open reads back what was written, staged or not, and a closed one answers nothing", () => {
  const writer = FileBackedWriter.open(dir)!;
  writer.unlink();
  expect(readdirSync(dir)).toEqual([]);
  const at = writer.writeText("Nguyễn 李");
  const into = new Uint8Array(Buffer.byteLength("Nguyễn 李"));
  // Still in the staging buffer: written out first, then read.
  expect(writer.read(into, at)).toBe(true);
  expect(decode(into)).toBe("Nguyễn 李");
  // Past what was written: refused, never a short read.
  expect(writer.read(new Uint8Array(into.byteLength + 1), at)).toBe(false);
  writer.abandon();
  expect(writer.intact).toBe(false);
  expect(writer.read(into, at)).toBe(false);
});

test("texts by rank: put, replaced, forgotten, bounded by the file's size, none where no file can be made", () => {
  expect(RankTexts.open(3, undefined, 1 << 20)).toBeUndefined();
  const texts = RankTexts.open(4, dir, 12)!;
  expect(readdirSync(dir)).toEqual([]);
  expect(texts.put(0, "alpha")).toBe(true);
  expect(texts.put(1, "βeta")).toBe(true);
  expect([0, 1, 2].map((rank) => decode(texts.get(rank)))).toEqual(["alpha", "βeta", undefined]);
  expect(texts.put(0, "ALPHA")).toBe(true); // 16 bytes written now: the file is full
  expect(decode(texts.get(0))).toBe("ALPHA");
  expect(texts.put(2, "gamma")).toBe(false);
  expect(texts.has(2)).toBe(false);
  // A put refused leaves the rank without a text, not with its old one.
  expect(texts.put(1, "beta again")).toBe(false);
  expect(texts.get(1)).toBeUndefined();
  texts.forget(0);
  expect(texts.get(0)).toBeUndefined();
  texts.close();
  expect(texts.put(3, "x")).toBe(false);
});

test("rendered answers: details as rendered, re-rendered when ratings change; review pages only for the version they were read at", () => {
  const source = {};
  expect(RenderedAnswers.open(source, 3, undefined)).toBeUndefined();
  const answers = RenderedAnswers.open(source, 5, dir)!;
  let stars = 0;
  const render = (rank: number) => (rank === 3 ? undefined : `{"rank":${rank},"stars":${stars}}`);
  const itemHead = (rank: number) => `{"name":"Ω${rank}","averageRating":`;
  expect(answers.renderDetails(2, render, itemHead)).toBe(true);
  expect(answers.detailsDone).toBe(false);
  // Answered as soon as written; the rest not yet.
  expect([0, 1, 2].map((rank) => decode(answers.detail(rank)))).toEqual(['{"rank":0,"stars":0}', '{"rank":1,"stars":0}', undefined]);
  stars = 5;
  answers.ratingsChanged(1, render);
  answers.ratingsChanged(4, render); // not rendered yet: it will be, with what the index says then
  expect(answers.itemsDone).toBe(false);
  expect(answers.listItems(new Int32Array([0]), { averageRating: [0], reviewCount: [0], verified: [0] }, "", "")).toBeUndefined();
  expect(answers.renderDetails(10, render, itemHead)).toBe(false);
  expect(answers.detailsDone).toBe(true);
  expect(answers.itemsDone).toBe(true);
  expect([0, 1, 2, 3, 4].map((rank) => decode(answers.detail(rank)))).toEqual([
    '{"rank":0,"stars":0}', '{"rank":1,"stars":5}', '{"rank":2,"stars":5}', undefined, '{"rank":4,"stars":5}',
  ]);

  answers.keepReviewPage(2, 7, "page of version 7");
  answers.keepReviewPage(2, 7, "a second one is not kept");
  expect(decode(answers.reviewPage(2, 7))).toBe("page of version 7");
  expect(answers.reviewPage(2, 8)).toBeUndefined();
  answers.keepReviewPage(0, 8, "page of version 8");
  expect(answers.reviewPage(2, 7)).toBeUndefined();
  expect(answers.reviewPage(2, 8)).toBeUndefined();
  expect(decode(answers.reviewPage(0, 8))).toBe("page of version 8");
  // A page of list items: heads as rendered, tails from the ratings given now, in the page's order.
  const ratings = { averageRating: [0, 4.25, 0, 3, 5], reviewCount: [0, 4, 0, 1, 2], verified: [0, 1, 0, 0, 1] };
  expect(decode(answers.listItems(new Int32Array([4, 1]), ratings, '{"data":', ',"total":2}'))).toBe(
    '{"data":[{"name":"Ω4","averageRating":5,"reviewCount":2,"isVerified":true},{"name":"Ω1","averageRating":4.25,"reviewCount":4,"isVerified":true}],"total":2}',
  );
  expect(decode(answers.listItems(new Int32Array(0), ratings, "{", "}"))).toBe("{[]}");
  answers.close();
  expect(answers.listItems(new Int32Array([0]), ratings, "", "")).toBeUndefined();
  expect(answers.detail(0)).toBeUndefined();
  expect(answers.reviewPage(0, 8)).toBeUndefined();
  expect(readdirSync(dir)).toEqual([]);
});

test("files a process that no longer runs left behind are removed when the directory is next written in; others stay", () => {
  const other = mkdtempSync(join(tmpdir(), "file-backed-leftovers-"));
  try {
    const gone = Bun.spawnSync(["true"]).pid; // exited: its id names no running process
    const leftover = `.index-text-${gone}-0123456789ab.tmp`;
    const live = `.index-text-${process.pid}-0123456789ab.tmp`; // this process's own (a writer in progress)
    const notOurs = [`.index-text-${gone}-notours.tmp`, "broker-directory.db", `index-text-${gone}-0123456789ab.tmp`];
    for (const name of [leftover, live, ...notOurs]) writeFileSync(join(other, name), "x");
    const writer = FileBackedWriter.open(other)!;
    writer.abandon();
    expect(readdirSync(other).sort()).toEqual([live, ...notOurs].sort());
  } finally {
    rmSync(other, { recursive: true, force: true });
  }
});
