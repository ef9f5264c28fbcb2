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
