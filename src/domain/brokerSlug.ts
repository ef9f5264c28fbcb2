import { slugify, trimChar } from "./text.ts";

/** Longest slug a broker may have (the detail path's parameter takes up to this many). */
export const MAX_SLUG_LENGTH = 200;

/**
 * The slug a broker gets when none is given: its name and its primary office's city, folded
 * ("Assurances Tremblay", "Québec" → "assurances-tremblay-quebec"). It depends on nothing but
 * those two, so importing the same file again finds the same broker. A city the name already
 * holds as whole words is not repeated ("Toronto Insurance Brokers" stays as it is). Empty when
 * neither has a letter or digit (a name in another script): the caller must then ask for a slug.
 */
export function brokerSlugFor(name: string, city: string): string {
  const nameSlug = slugify(name);
  const citySlug = slugify(city);
  const holdsCity = citySlug === "" || `-${nameSlug}-`.includes(`-${citySlug}-`);
  const slug = holdsCity ? nameSlug : trimChar(`${nameSlug}-${citySlug}`, "-");
  if (slug.length <= MAX_SLUG_LENGTH) return slug;
  // Cut at a word: the last hyphen within the limit.
  const cut = slug.slice(0, MAX_SLUG_LENGTH + 1);
  const lastHyphen = cut.lastIndexOf("-");
  return lastHyphen > 0 ? cut.slice(0, lastHyphen) : slug.slice(0, MAX_SLUG_LENGTH);
}
