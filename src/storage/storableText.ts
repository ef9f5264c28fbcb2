/**
 * Whether PostgreSQL could hold this text: it refuses the NUL character (U+0000) in text and
 * jsonb, where SQLite stores it. No stored id can contain one, so a lookup with one finds
 * nothing without asking (as over SQLite); writes with one are refused before they get here
 * (src/router/nulInput.ts). A store written once for both dialects checks it in both: over
 * SQLite the answer is the same (nothing found), only sooner.
 */
export function storable(text: string): boolean {
  return !text.includes("\0");
}
