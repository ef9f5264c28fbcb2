import { ImportFileError } from "./rowError.ts";

/** The formats an import reads: CSV with a header row, NDJSON (one JSON object a line), a JSON array. */
export type ImportFormat = "csv" | "ndjson" | "json";

/** How much of the start of a file the format is told from. */
export const SNIFF_BYTES = 64 * 1024;

const FORMAT_BY_EXTENSION: Readonly<Record<string, ImportFormat>> = { csv: "csv", ndjson: "ndjson", jsonl: "ndjson", json: "json" };

/** Files people pick by mistake, by their first bytes. */
const SIGNATURES: readonly { bytes: readonly number[]; what: string }[] = [
  { bytes: [0x89, 0x50, 0x4e, 0x47], what: "a PNG image" },
  { bytes: [0xff, 0xd8, 0xff], what: "a JPEG image" },
  { bytes: [0x47, 0x49, 0x46, 0x38], what: "a GIF image" },
  { bytes: [0x25, 0x50, 0x44, 0x46], what: "a PDF document" },
  { bytes: [0x50, 0x4b, 0x03, 0x04], what: "a ZIP archive (an Excel .xlsx workbook is one: save it as CSV UTF-8)" },
  { bytes: [0x1f, 0x8b], what: "gzip-compressed (decompress it first)" },
  { bytes: [0xd0, 0xcf, 0x11, 0xe0], what: "an Excel .xls workbook (save it as CSV UTF-8)" },
  { bytes: [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65], what: "an SQLite database" },
  { bytes: [0xff, 0xfe], what: "UTF-16 text (save it as UTF-8)" },
  { bytes: [0xfe, 0xff], what: "UTF-16 text (save it as UTF-8)" },
];

/** Share of control bytes (other than tab and line breaks) past which the start of a file is binary. */
const BINARY_SHARE = 0.01;

/**
 * The format of a file, from its first bytes, checked against its extension when it has a known
 * one (a `.csv` that holds JSON is the wrong file, not a format to guess). A stray NUL byte in a
 * row does not make a file binary (that row is reported); a start full of control bytes does.
 */
export function detectFormat(head: Uint8Array, name?: string): ImportFormat {
  const refuse = (what: string) => new ImportFileError(`not a CSV, NDJSON or JSON file: it is ${what}`);
  const signature = SIGNATURES.find((s) => s.bytes.every((byte, i) => head[i] === byte));
  if (signature) throw refuse(signature.what);
  let controls = 0;
  for (const byte of head) if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) controls++;
  if (controls > head.length * BINARY_SHARE) throw refuse(`binary data (${controls} control bytes in its first ${head.length.toLocaleString("en-CA")})`);

  const text = new TextDecoder().decode(head).trimStart();
  if (text === "") throw new ImportFileError("the file is empty");
  const first = text[0];
  if (first === "<") throw refuse("an HTML or XML document (it starts with <)");
  const format: ImportFormat = first === "[" ? "json" : first === "{" ? "ndjson" : "csv";

  const extension = name?.includes(".") ? name.slice(name.lastIndexOf(".") + 1).toLowerCase() : "";
  const named = FORMAT_BY_EXTENSION[extension];
  if (named !== undefined && (named === "csv") !== (format === "csv")) {
    const holds = format === "csv" ? "text that is not JSON" : `JSON (it starts with ${first})`;
    throw new ImportFileError(`the file is named .${extension} but holds ${holds}: check it is the right file`);
  }
  return format;
}
