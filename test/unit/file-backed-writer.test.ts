/**
 * The index's files written a piece at a time (src/storage/search/fileBackedWriter.ts) and the
 * rendered details kept in one (src/storage/search/renderedDetails.ts, read at offsets): offsets
 * and bytes read back exactly, texts larger than the staging buffer whole, no file name ever left behind, and
 * no rendering where no file can be written.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileBackedWriter } from "../../src/storage/search/fileBackedWriter.ts";
import { RenderedDetails } from "../../src/storage/search/renderedDetails.ts";

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

test("rendered details answer only once all are written; a rank left out or forgotten is not answered", () => {
  const source = {};
  expect(RenderedDetails.start(source, 3, undefined)).toBeUndefined();
  const rendered = RenderedDetails.start(source, 5, dir)!;
  const render = (rank: number) => (rank === 3 ? undefined : `{"rank":${rank}}`);
  expect(rendered.renderSome(2, render)).toBe(true);
  // Rank 0 is written, rank 4 not yet: forgetting 4 now must not hide what it will be rendered as.
  rendered.forget(0);
  rendered.forget(4);
  expect(rendered.finished).toBe(false);
  expect(rendered.text(1)).toBeUndefined();
  expect(rendered.renderSome(10, render)).toBe(false);
  expect(rendered.finished).toBe(true);
  expect([0, 1, 2, 3, 4].map((rank) => decode(rendered.text(rank)))).toEqual([undefined, '{"rank":1}', '{"rank":2}', undefined, '{"rank":4}']);
  expect(rendered.renderSome(10, render)).toBe(false);
  expect(readdirSync(dir)).toEqual([]);
  // Closed (the index loaded anew): nothing more is answered from it.
  rendered.close();
  expect(rendered.text(1)).toBeUndefined();
});

test("a rendering closed before it is finished leaves no file and answers nothing", () => {
  const rendered = RenderedDetails.start({}, 3, dir)!;
  rendered.renderSome(1, () => "x".repeat(5_000));
  expect(readdirSync(dir).length).toBe(1);
  rendered.close();
  expect(readdirSync(dir)).toEqual([]);
  expect(rendered.finished).toBe(true);
  expect(rendered.renderSome(5, () => "y")).toBe(false);
  expect(rendered.text(0)).toBeUndefined();
});
