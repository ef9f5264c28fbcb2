/**
 * A CSV cell's text as the value its column takes (JSON files give typed values already):
 * lists are `;`-separated, booleans are true or false (any case, as spreadsheets write them),
 * numbers are decimal digits. A cell that does not decode stays text, so the record's schema
 * refuses it with the value in the message ("must be true or false (got "yes")"). Empty cells
 * are absent.
 */
export type CellKind = "text" | "list" | "boolean" | "number";

// Optional sign, digits, optional fraction: linear.
const NUMBER = /^[+-]?\d+(?:\.\d+)?$/;

/**
 * Formulas: a cell starting with = + - or @ is taken as text (nothing here evaluates it, and a
 * phone number starts with +). A leading apostrophe before one of them is the guard our own
 * CSV export adds (src/domain/csv.ts) and is removed, so an exported file imports as it was.
 */
const EXPORT_GUARD = /^'[=+\-@]/;

export function decodeCells(cells: Readonly<Record<string, unknown>>, kinds: Readonly<Record<string, CellKind>>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const column in cells) {
    const cell = cells[column];
    if (typeof cell !== "string") continue;
    const trimmed = cell.trim();
    const text = EXPORT_GUARD.test(trimmed) ? trimmed.slice(1) : trimmed;
    if (text !== "") values[column] = decodeCell(text, kinds[column] ?? "text");
  }
  return values;
}

function decodeCell(text: string, kind: CellKind): unknown {
  switch (kind) {
    case "list":
      return text.split(";").map((item) => item.trim()).filter((item) => item !== "");
    case "boolean": {
      const lower = text.toLowerCase();
      return lower === "true" ? true : lower === "false" ? false : text;
    }
    case "number":
      return NUMBER.test(text) ? Number(text) : text;
    case "text":
      return text;
  }
}
