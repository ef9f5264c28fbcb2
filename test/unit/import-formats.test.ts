import { describe, expect, test } from "bun:test";
import { readBrokerImport } from "../../src/importing/brokerImport.ts";
import { detectFormat } from "../../src/importing/formatDetection.ts";
import { readReviewImport } from "../../src/importing/reviewImport.ts";
import { ImportFileError } from "../../src/importing/rowError.ts";
import { importInput, readEvents } from "../support/importFiles.ts";

const REVIEW = { externalId: "r1", brokerExternalId: "b1", rating: 4, title: "Bien", content: "Très bon service", authorName: "Zoé Côté", createdAt: "2025-03-04T17:22:05Z" };
const REVIEW_COLUMNS = "externalId,brokerExternalId,rating,title,content,authorName,createdAt";

async function reviewsOf(content: string | Uint8Array, name?: string) {
  return readEvents(readReviewImport(importInput(content, name)));
}

/** The message a file is refused with. */
async function refusal(content: string | Uint8Array, name?: string): Promise<string> {
  try {
    await reviewsOf(content, name);
  } catch (error) {
    if (error instanceof ImportFileError) return error.message;
    throw error;
  }
  throw new Error("the file was not refused");
}

describe("CSV dialects", () => {
  test("comma-separated, LF, no BOM", async () => {
    const { records, errors } = await reviewsOf(`${REVIEW_COLUMNS}\nr1,b1,4,Bien,Très bon service,Zoé Côté,2025-03-04T17:22:05Z\n`);
    expect(errors).toEqual([]);
    expect(records).toEqual([{ line: 2, record: { ...REVIEW, brokerSlug: null, createdAt: "2025-03-04T17:22:05.000Z" } }]);
  });

  test("a UTF-8 BOM, CRLF line ends and a last row without a line end", async () => {
    const { records } = await reviewsOf(`\uFEFF${REVIEW_COLUMNS}\r\nr1,b1,4,Bien,Très bon service,Zoé Côté,2025-03-04T17:22:05Z\r\nr2,b1,5,,Bravo,Ann,2025-03-05`);
    expect(records.map((r) => [r.line, r.record.externalId, r.record.content])).toEqual([[2, "r1", "Très bon service"], [3, "r2", "Bravo"]]);
  });

  test("semicolon-separated, as French spreadsheets write it, with a header in another case", async () => {
    const { records } = await reviewsOf(`ExternalId;brokerexternalid;Rating;title;content;authorName;createdAt\r\nr1;b1;4;Bien, très bien;"A; B";Zoé Côté;2025-03-04\r\n`);
    expect(records.map((r) => [r.record.title, r.record.content])).toEqual([["Bien, très bien", "A; B"]]);
  });

  test("quoted cells hold delimiters, doubled quotes and line breaks; the next row's line counts them", async () => {
    const csv = `${REVIEW_COLUMNS}\r\nr1,b1,4,"Say ""hi"", then",\"first line\r\nsecond line\r\n\r\nfourth\",Ann,2025-03-04\r\n\r\nr2,b1,5,,Bravo,Ann,2025-03-05\r\n`;
    const { records } = await reviewsOf(csv);
    expect(records.map((r) => r.line)).toEqual([2, 7]);
    expect(records[0]!.record.title).toBe('Say "hi", then');
    expect(records[0]!.record.content).toBe("first line\nsecond line\n\nfourth");
  });

  test("formula-looking cells are text; our own export's guard apostrophe is taken off", async () => {
    const { records } = await reviewsOf(`${REVIEW_COLUMNS}\nr1,b1,4,=HYPERLINK(1),'=SUM(A1),@Ann,2025-03-04\n`);
    expect(records[0]!.record).toMatchObject({ title: "=HYPERLINK(1)", content: "=SUM(A1)", authorName: "@Ann" });
  });
});

describe("JSON", () => {
  test("NDJSON: one object a line, blank lines skipped, null means absent, the server's id ignored", async () => {
    const ndjson = `${JSON.stringify({ ...REVIEW, id: "9", title: null })}\n\n${JSON.stringify({ ...REVIEW, externalId: "r2" })}\n`;
    const { records, errors } = await reviewsOf(ndjson, "reviews.ndjson");
    expect(errors).toEqual([]);
    expect(records.map((r) => [r.line, r.record.externalId, r.record.title])).toEqual([[1, "r1", ""], [3, "r2", "Bien"]]);
  });

  test("a JSON array, pretty-printed or on one line, each element numbered by the line it starts on", async () => {
    const pretty = JSON.stringify([REVIEW, { ...REVIEW, externalId: "r2" }], null, 2);
    expect((await reviewsOf(pretty, "reviews.json")).records.map((r) => r.line)).toEqual([2, 11]);
    const oneLine = JSON.stringify([REVIEW, { ...REVIEW, externalId: "r2", content: "a ] } , [ { \\\" b" }]);
    const { records } = await reviewsOf(oneLine);
    expect(records.map((r) => [r.line, r.record.content])).toEqual([[1, "Très bon service"], [1, 'a ] } , [ { \\" b']]);
  });

  test("a bad element is reported and the next one read", async () => {
    const json = `[\n${JSON.stringify(REVIEW)},\n42,\n{"externalId": },\n${JSON.stringify({ ...REVIEW, externalId: "r2" })}\n]`;
    const { records, errors } = await reviewsOf(json);
    expect(records.map((r) => r.line)).toEqual([2, 5]);
    expect(errors).toEqual(["line 3: must be a JSON object ({…}), one record each", expect.stringMatching(/^line 4: is not valid JSON: /)]);
  });

  test("brackets that do not match, or an array cut short, end the reading with the line", async () => {
    const broken = await reviewsOf(`[${JSON.stringify(REVIEW)},\n{"a": [1}, ${JSON.stringify(REVIEW)}]`);
    expect(broken.errors).toEqual(["line 2: has a } where ] was expected: the JSON array is broken here; nothing after it was read"]);
    const cut = await reviewsOf(`[${JSON.stringify(REVIEW)},\n{"externalId": "r2"`);
    expect(cut.records).toHaveLength(1);
    expect(cut.errors).toEqual(["line 2: ends inside the JSON array (was the file cut short?): this element was not read"]);
  });
});

describe("files that are not CSV, NDJSON or JSON are refused before any record", () => {
  test("a PNG image", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    expect(await refusal(png, "brokers.csv")).toBe("not a CSV, NDJSON or JSON file: it is a PNG image");
  });

  test("an HTML page (a login or error page saved instead of the export)", async () => {
    expect(await refusal("\n<!DOCTYPE html><html><body>Sign in</body></html>", "export.csv")).toBe(
      "not a CSV, NDJSON or JSON file: it is an HTML or XML document (it starts with <)",
    );
  });

  test("an Excel workbook, UTF-16 text, binary data, an empty file", async () => {
    expect(await refusal(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2]))).toContain("a ZIP archive (an Excel .xlsx workbook is one: save it as CSV UTF-8)");
    expect(await refusal(new Uint8Array([0xff, 0xfe, 0x61, 0]))).toBe("not a CSV, NDJSON or JSON file: it is UTF-16 text (save it as UTF-8)");
    expect(await refusal(new Uint8Array(200).map((_, i) => i % 7))).toMatch(/^not a CSV, NDJSON or JSON file: it is binary data \(\d+ control bytes in its first 200\)$/);
    expect(await refusal("  \n")).toBe("the file is empty");
  });

  test("a name that says one format over content in another", async () => {
    expect(await refusal(JSON.stringify(REVIEW), "reviews.csv")).toBe('the file is named .csv but holds JSON (it starts with {): check it is the right file');
    expect(await refusal(`${REVIEW_COLUMNS}\n`, "reviews.ndjson")).toBe("the file is named .ndjson but holds text that is not JSON: check it is the right file");
  });

  test("a CSV whose header names columns we do not know, twice, or lacks one", async () => {
    expect(await refusal("externalId,brokerExternalId,stars,Postcode\n")).toBe(
      'line 1, the header row: "stars", "Postcode" are not columns we know. The columns are externalId, brokerExternalId, brokerSlug, rating, title, content, authorName, createdAt',
    );
    expect(await refusal(`${REVIEW_COLUMNS},rating\n`)).toBe("line 1, the header row: rating appears more than once");
    expect(await refusal("externalId,rating,content,authorName,createdAt\n")).toBe("line 1, the header row: a column is missing: brokerExternalId or brokerSlug");
  });

  test("the format is told from content when the name has no known extension (stdin, .txt)", () => {
    const bytes = (text: string) => new TextEncoder().encode(text);
    expect(detectFormat(bytes(" [ {}"))).toBe("json");
    expect(detectFormat(bytes("{}\n{}"), "export.txt")).toBe("ndjson");
    expect(detectFormat(bytes("\uFEFFname,city"), "brokers")).toBe("csv");
    expect(detectFormat(bytes("[]"), "reviews.ndjson")).toBe("json");
  });

  test("a broker file is refused the same way", async () => {
    await expect(readEvents(readBrokerImport(importInput("<html></html>")))).rejects.toThrow(ImportFileError);
  });
});
