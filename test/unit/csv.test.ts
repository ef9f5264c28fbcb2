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

test("a phone in E.164 is no formula: kept as it is, quoted; anything else starting with + keeps the guard", () => {
  expect(csvCell("+14165550123")).toBe('"+14165550123"');
  expect(csvCell("+442071838750")).toBe('"+442071838750"');
  for (const risky of ["+1 416 555 0123", "+1416555012x", "+0123456789", "+1234567", "+1234567890123456", "+14165550123\n=cmd", "+1+2"]) {
    expect(csvCell(risky)).toBe(`"'${risky.replaceAll('"', '""')}"`);
  }
});

test("a document starts with the UTF-8 BOM and ends every row with CRLF", () => {
  const text = csvDocument(["name", "city"], [["Côté", "Québec"]]);
  expect(text).toBe(`${UTF8_BOM}"name","city"\r\n"Côté","Québec"\r\n`);
});
