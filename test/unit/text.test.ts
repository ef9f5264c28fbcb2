import { expect, test } from "bun:test";
import { abbreviateAuthorName } from "../../src/domain/authorName.ts";
import { foldText, slugify } from "../../src/domain/text.ts";
import { toFtsQuery } from "../../src/storage/search/fullTextSearch.ts";

test("foldText ignores case, accents and extra spaces", () => {
  expect(foldText("  Montréal ")).toBe("montreal");
  expect(foldText("ÎLE   d'Orléans")).toBe("ile d'orleans");
});

test("slugify keeps letters and digits", () => {
  expect(slugify("Beauchamp & Fils Assurances")).toBe("beauchamp-fils-assurances");
  expect(slugify("Côté O'Brien Inc.")).toBe("cote-o-brien-inc");
});

test("author names keep the first name and the last initial", () => {
  expect(abbreviateAuthorName("Marie Tremblay")).toBe("Marie T.");
  expect(abbreviateAuthorName("Jean-Luc de la Fontaine")).toBe("Jean-Luc F.");
  expect(abbreviateAuthorName("Cher")).toBe("Cher");
  expect(abbreviateAuthorName("  ")).toBe("Anonymous");
  expect(abbreviateAuthorName("Zoé élise")).toBe("Zoé É.");
});

test("FTS queries quote every word and prefix the last", () => {
  expect(toFtsQuery("commercial auto")).toBe('"commercial" "auto"*');
  expect(toFtsQuery('NEAR("a" OR b*) -c:d')).toBe('"NEAR" "a" "OR" "b" "c" "d"*');
  expect(toFtsQuery("*()\"-")).toBeUndefined();
  expect(toFtsQuery("x ".repeat(100))!.split(" ")).toHaveLength(12);
});
