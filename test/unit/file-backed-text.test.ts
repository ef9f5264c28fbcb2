import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileBacked } from "../../src/storage/search/fileBackedBytes.ts";
import { TextColumns } from "../../src/storage/search/textColumns.ts";

// The index's sealed text moves into a private mapping of an unlinked file beside the database
// (fileBackedBytes.ts): same bytes, no name left behind, and not anonymous memory.

const dir = mkdtempSync(join(tmpdir(), "file-backed-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The mappings of this process whose file name contains `part`, with their anonymous kB. */
function mappingsNamed(part: string): { line: string; anonymousKb: number }[] {
  const found: { line: string; anonymousKb: number }[] = [];
  let current: { line: string; anonymousKb: number } | undefined;
  for (const line of readFileSync("/proc/self/smaps", "utf8").split("\n")) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) {
      current = line.includes(part) ? { line, anonymousKb: 0 } : undefined;
      if (current) found.push(current);
    } else if (current && line.startsWith("Anonymous:")) current.anonymousKb = Number(line.split(/\s+/)[1]);
  }
  return found;
}

const sample = Buffer.from("Courtier d’assurance Montréal · 多伦多 · ".repeat(400));

describe("fileBacked", () => {
  test("gives back the same bytes from a mapped file that no longer has a name", () => {
    const half = sample.length >> 1;
    const kept = fileBacked([sample.subarray(0, half), sample.subarray(half)], dir)!;
    expect(kept.equals(sample)).toBe(true);
    expect(readdirSync(dir)).toEqual([]);
    if (process.platform !== "linux") return;
    // Only this test's directory: other tests in the same process map index files of their own.
    const mapped = mappingsNamed(`${dir}/.index-text-${process.pid}-`);
    expect(mapped.length).toBeGreaterThan(0);
    expect(mapped.every((m) => m.line.endsWith("(deleted)"))).toBe(true);
    // Read but never written: file pages, not the process's anonymous memory.
    expect(kept.toString("utf8", 0, 64)).toBe(sample.toString("utf8", 0, 64));
    expect(mapped.every((m) => m.anonymousKb === 0)).toBe(true);
  });

  test("is page-aligned, so offsets written first read back as an Int32Array", () => {
    const offsets = Int32Array.from({ length: 2_000 }, (_, i) => i * 7 - 3);
    const kept = fileBacked([new Uint8Array(offsets.buffer), sample], dir)!;
    expect(kept.byteOffset % 4096).toBe(0);
    expect([...new Int32Array(kept.buffer, kept.byteOffset, offsets.length)]).toEqual([...offsets]);
  });

  test("keeps the bytes in memory when the directory cannot take the file", () => {
    expect(fileBacked([sample], join(dir, "no", "such", "directory"))).toBeUndefined();
    expect(fileBacked([sample], undefined)).toBeUndefined();
    expect(readdirSync(dir)).toEqual([]);
  });

  test("keeps a few bytes in memory: not worth a file (and an empty file cannot be mapped)", () => {
    expect(fileBacked([Buffer.from("Acme")], dir)).toBeUndefined();
    expect(fileBacked([], dir)).toBeUndefined();
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("TextColumns sealed into a file", () => {
  test("reads back every field, null and empty ones included, as when kept in memory", () => {
    const rows = 2_000;
    const texts = (row: number): (string | null)[] => [`Broker ${row} — Québec`, row % 7 === 0 ? null : `+1514555${String(row).padStart(4, "0")}`, row % 11 === 0 ? "" : `https://example.ca/${row}/été`];
    const inMemory = new TextColumns(rows, 3);
    const inFile = new TextColumns(rows, 3);
    for (let row = 0; row < rows; row++) {
      inMemory.set(row, texts(row));
      inFile.set(row, texts(row));
    }
    inMemory.seal();
    const before = mappingsNamed(`${dir}/.index-text-`).length;
    inFile.seal(dir);
    expect(readdirSync(dir)).toEqual([]);
    if (process.platform === "linux") expect(mappingsNamed(`${dir}/.index-text-`).length).toBe(before + 1);
    for (let row = 0; row < rows; row++) {
      for (let field = 0; field < 3; field++) {
        expect(inFile.text(row, field)).toBe(inMemory.text(row, field));
        expect(inFile.text(row, field)).toBe(texts(row)[field]!);
      }
      expect(inFile.equals(row, 0, `Broker ${row} — Québec`)).toBe(true);
      expect(inFile.equals(row, 0, `Broker ${row} — Quebec`)).toBe(false);
    }
  });
});

describe("TextColumns.row", () => {
  test("gives each field as text() does: ASCII rows (one decoding), wide rows, nulls, empties and rows never set, in memory and in a file", () => {
    const rows = 3_000;
    const texts = (row: number): (string | null)[] => [
      row % 5 === 0 ? `Courtier ${row} Québec` : `Broker ${row}`,
      row % 7 === 0 ? null : row % 13 === 0 ? "" : `+1514555${String(row).padStart(4, "0")}`,
      row % 11 === 0 ? "" : row % 17 === 0 ? `李 ${row} 🏠` : `https://example.ca/${row}`,
      row % 19 === 0 ? null : "ON",
    ];
    for (const directory of [undefined, dir]) {
      const columns = new TextColumns(rows, 4);
      // Every third row is skipped: it reads as empty text.
      for (let row = 0; row < rows; row++) if (row % 3 !== 2) columns.set(row, texts(row));
      columns.seal(directory);
      let ascii = 0;
      for (let row = 0; row < rows; row++) {
        const expected = row % 3 === 2 ? ["", "", "", ""] : texts(row);
        expect(columns.row(row)).toEqual(expected);
        expect(columns.row(row)).toEqual([0, 1, 2, 3].map((field) => columns.text(row, field)));
        if (expected.every((text) => text === null || /^[\x00-\x7f]*$/.test(text))) ascii++;
      }
      // Both ways of reading a row are compared, not only one.
      expect(ascii).toBeGreaterThan(1_000);
      expect(ascii).toBeLessThan(rows);
    }
  });
});
