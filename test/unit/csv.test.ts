import { expect, test } from "bun:test";
import { csvCell, csvDocument, UTF8_BOM } from "../../src/domain/csv.ts";

test("every cell is quoted, inner quotes doubled; commas and newlines stay inside the quotes", () => {
  expect(csvCell("plain")).toBe('"plain"');
  expect(csvCell('say "hi", then\r\nleave')).toBe('"say ""hi"", then\r\nleave"');
  expect(csvCell(null)).toBe('""');
  expect(csvCell(42)).toBe('"42"');
});

test("cells a spreadsheet would run as a formula get a leading apostrophe", () => {
  for (const risky of ["=1+1", "+1 416", "-5", "@SUM(A1)", "\t=cmd", "\r=cmd"]) expect(csvCell(risky)).toBe(`"'${risky}"`);
  expect(csvCell("a=b")).toBe('"a=b"');
  expect(csvCell(-5)).toBe('"-5"'); // numbers are ours, not text from outside
});

test("a document starts with the UTF-8 BOM and ends every row with CRLF", () => {
  const text = csvDocument(["name", "city"], [["Côté", "Québec"]]);
  expect(text).toBe(`${UTF8_BOM}"name","city"\r\n"Côté","Québec"\r\n`);
});
