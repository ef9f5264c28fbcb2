/**
 * Folds text for comparisons that must ignore case and accents
 * ("Montréal" = "montreal", "Québec" = "QUEBEC").
 */
export function foldText(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

/** A URL-safe slug from a display name ("Beauchamp & Fils Assurances" → "beauchamp-fils-assurances"). */
export function slugify(text: string): string {
  return trimChar(foldText(text).replace(/[^a-z0-9]+/g, "-"), "-");
}

/**
 * The text without `char` at either end. A loop, not `/^-+|-+$/`: that regex rescans a long
 * run of the character from each position of it (quadratic), and every regex here is linear.
 */
export function trimChar(text: string, char: string, ends: "both" | "end" = "both"): string {
  let start = 0;
  let end = text.length;
  if (ends === "both") while (start < end && text[start] === char) start++;
  while (end > start && text[end - 1] === char) end--;
  return text.slice(start, end);
}

/**
 * Characters a terminal acts on rather than shows: C0 controls, DEL, C1 controls (ESC and CSI
 * sequences move the cursor and erase rows, OSC 52 writes the clipboard) and the bidirectional
 * embeddings, overrides and isolates (U+202A–202E, U+2066–2069) that reorder what is shown.
 * One character class each, no nesting: linear.
 */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const CONTROLS_ALL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
/** The same but tab, line feed and carriage return, which free text (a note) may hold. */
const CONTROLS_BUT_LINE_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** Whether the text holds a control character (see CONTROLS); `"lines"` allows tab, CR and LF. */
export function hasControlCharacters(text: string, allow: "none" | "lines" = "none"): boolean {
  return (allow === "lines" ? CONTROLS_BUT_LINE_BREAKS : CONTROLS).test(text);
}

/**
 * The text with each control character written as its JSON escape (ESC as \u001b), for a
 * terminal or a log: what was stored is shown, never obeyed. Valid JSON stays valid JSON (such
 * characters only occur inside its strings, where \uXXXX means the same), so it also finishes
 * JSON.stringify's output, which escapes C0 but leaves C1 and the bidi controls raw.
 */
export function escapeControls(text: string): string {
  return CONTROLS.test(text) ? text.replace(CONTROLS_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`) : text;
}
