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
  return foldText(text)
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}
