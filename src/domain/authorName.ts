/**
 * Shortens a reviewer's name for display: first name and the initial of the last name
 * ("Marie Tremblay" → "Marie T.", "Jean-Luc de la Fontaine" → "Jean-Luc F.", "Cher" → "Cher").
 * Words are separated by what JavaScript's `\s` matches; the initial is the last word's first
 * code point, upper-cased. (One scan from each end: every review of every page goes through
 * here, and split + filter + Array.from cost more than the rest of a review's mapping.)
 */
export function abbreviateAuthorName(fullName: string): string {
  const name = fullName.trim();
  if (name === "") return "Anonymous";
  let firstEnd = 0;
  while (firstEnd < name.length && !isSpace(name.charCodeAt(firstEnd))) firstEnd++;
  if (firstEnd === name.length) return name;
  let lastStart = name.length;
  while (!isSpace(name.charCodeAt(lastStart - 1))) lastStart--;
  const initial = String.fromCodePoint(name.codePointAt(lastStart)!).toUpperCase();
  return `${name.slice(0, firstEnd)} ${initial}.`;
}

/** Exactly the characters of JavaScript's `\s` (WhiteSpace and LineTerminator). */
function isSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 ||
    code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff
  );
}
