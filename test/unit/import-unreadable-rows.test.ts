import { describe, expect, test } from "bun:test";
import { MAX_RECORD_LENGTH } from "../../src/importing/importLimits.ts";
import { readReviewImport } from "../../src/importing/reviewImport.ts";
import { importInput, readEvents } from "../support/importFiles.ts";

/**
 * Rows a file cannot give at all: each is reported with its line, and the rows around it are
 * read as if it were not there.
 */
const HEADER = "externalId,brokerExternalId,rating,title,content,authorName,createdAt";
const row = (id: string, content = "Good") => `${id},B-1,5,Title,${content},Ann,2025-03-04`;
const json = (id: string, content = "Good") => JSON.stringify({ externalId: id, brokerExternalId: "B-1", rating: 5, content, authorName: "Ann", createdAt: "2025-03-04" });
const encode = (text: string) => new TextEncoder().encode(text);

async function read(content: string | Uint8Array, chunkBytes?: number) {
  const { records, errors } = await readEvents(readReviewImport(importInput(content, undefined, chunkBytes)));
  return { ids: records.map((r) => `${r.line}:${r.record.externalId}`), errors };
}

const NUL = "holds a NUL byte (\\0): the file is damaged or not text; remove it";
const NOT_UTF8 = "holds bytes that are not UTF-8 text (a file saved as Windows-1252 or Latin-1?): save the file as UTF-8";
const TOO_LONG = "is longer than 1,048,576 characters (1 MiB), the most one record may hold: skipped";

describe("NUL bytes", () => {
  test("in a CSV row", async () => {
    expect(await read([HEADER, row("r1"), row("r2", "Go\0od"), row("r3")].join("\n"))).toEqual({ ids: ["2:r1", "4:r3"], errors: [`line 3: ${NUL}`] });
  });

  test("in an NDJSON line (a \\u0000 escape is JSON, and the text rule refuses it by field)", async () => {
    const { ids, errors } = await read([json("r1"), json("r2").replace("Good", "Go\0od"), json("r3", "Go\u0000od")].join("\n"));
    expect(ids).toEqual(["1:r1"]);
    expect(errors).toEqual([`line 2: ${NUL}`, "line 3, content: must not contain control characters (escape sequences, bidirectional overrides); line breaks and tabs are fine"]);
  });
});

describe("bytes that are not UTF-8 are named by line", () => {
  const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0)); // "é" as the single byte 0xE9

  test("a CSV row saved as Latin-1 among UTF-8 ones", async () => {
    const bytes = new Uint8Array([...encode(`${HEADER}\n${row("r1", "Très")}\n`), ...latin1(`${row("r2", "Très")}\n`), ...encode(`${row("r3", "Très")}\n`)]);
    expect(await read(bytes)).toEqual({ ids: ["2:r1", "4:r3"], errors: [`line 3: ${NOT_UTF8}`] });
  });

  test("an NDJSON line with a broken sequence, cut across chunks", async () => {
    const bytes = new Uint8Array([...encode(`${json("r1")}\n`), ...encode(json("r2").slice(0, 40)), 0xc3, 0x28, ...encode(`${json("r2").slice(40)}\n${json("r3")}\n`)]);
    expect(await read(bytes, 3)).toEqual({ ids: ["1:r1", "3:r3"], errors: [`line 2: ${NOT_UTF8}`] });
  });
});

describe(`a record over ${MAX_RECORD_LENGTH.toLocaleString("en-CA")} characters is skipped, never held, and reading goes on`, () => {
  const long = "x".repeat(MAX_RECORD_LENGTH + 10);

  test("a CSV row, unquoted or in a quoted cell over many lines", async () => {
    const quoted = `"${"y".repeat(400_000)}\n${"y".repeat(400_000)}\n${"y".repeat(400_000)}"`;
    const csv = [HEADER, row("r1"), row("r2", long), row("r3"), row("r4", quoted), row("r5")].join("\r\n");
    expect(await read(csv, 64 * 1024)).toEqual({ ids: ["2:r1", "4:r3", "8:r5"], errors: [`line 3: ${TOO_LONG}`, `line 5: ${TOO_LONG}`] });
  });

  test("an NDJSON line", async () => {
    expect(await read([json("r1"), json("r2", long), json("r3")].join("\n"), 64 * 1024)).toEqual({ ids: ["1:r1", "3:r3"], errors: [`line 2: ${TOO_LONG}`] });
  });

  test("an element of a JSON array", async () => {
    expect(await read(`[${json("r1")},\n${json("r2", long)},\n${json("r3")}]`, 64 * 1024)).toEqual({ ids: ["1:r1", "3:r3"], errors: [`line 2: ${TOO_LONG}`] });
  });
});

describe("CSV quoting that does not hold", () => {
  test("a quote inside an unquoted cell: the lines read as its one row are named", async () => {
    const { ids, errors } = await read([HEADER, row("r1"), row("r2", 'the 5" pipe'), row("r3"), row("r4", 'a 1" tube'), row("r5")].join("\n"));
    expect(ids).toEqual(["2:r1", "6:r5"]);
    expect(errors).toEqual([
      'line 3: has a double quote (") inside a cell that does not start with one: put the whole cell in quotes and double the quote inside ("5"" pipe") (lines 3–5 were read as this one row; none was imported)',
    ]);
  });

  test("a quoted cell never closed takes the rest of the file, and says so", async () => {
    const { ids, errors } = await read([HEADER, row("r1"), row("r2", '"unclosed'), row("r3")].join("\n"));
    expect(ids).toEqual(["2:r1"]);
    expect(errors).toEqual(['line 3: opens a quoted cell that is never closed (a " is missing): the rest of the file was read as that cell']);
  });
});
