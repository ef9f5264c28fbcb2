import { foldText } from "./text.ts";

/**
 * Languages a broker may serve clients in, by the English name the directory stores, with the
 * other names people type: the ISO 639-1 code and the French name (folded: no case, no accents).
 */
const LANGUAGE_ALIASES: Readonly<Record<string, readonly string[]>> = {
  English: ["en", "anglais"],
  French: ["fr", "français"],
  Punjabi: ["pa", "pendjabi", "panjabi"],
  Mandarin: ["zh", "cmn", "mandarin chinese"],
  Cantonese: ["yue"],
  Spanish: ["es", "espagnol", "español"],
  Italian: ["it", "italien", "italiano"],
  Portuguese: ["pt", "portugais", "português"],
  Tagalog: ["tl", "filipino"],
  Arabic: ["ar", "arabe"],
  Hindi: ["hi"],
  Ukrainian: ["uk", "ukrainien"],
};

const byAlias = new Map<string, string>();
const nameByAlias = new Map<string, string>();
for (const [name, aliases] of Object.entries(LANGUAGE_ALIASES)) {
  for (const alias of [name, ...aliases]) {
    byAlias.set(foldText(alias), foldText(name));
    nameByAlias.set(foldText(alias), name);
  }
}

/**
 * The folded stored name a language filter means ("fr", "Français", "french" → "french").
 * A name we have no alias for is kept as typed (folded): it matches brokers that list it.
 */
export function languageKey(text: string): string {
  const folded = foldText(text);
  return byAlias.get(folded) ?? folded;
}

/**
 * The name a language is stored under ("fr", "Français", "french" → "French"); one we have no
 * alias for is kept as written (trimmed), like languageKey keeps it for filtering.
 */
export function languageName(text: string): string {
  return nameByAlias.get(foldText(text)) ?? text.trim();
}
