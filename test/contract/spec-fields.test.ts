import { expect, test } from "bun:test";
import { BROKER_LIST_ITEM, contractViolations } from "./specFields.ts";

/** The checker the contract suites rely on must catch what they exist to catch. */
const item = { id: "1", name: "A", slug: "a", description: "d", province: "ON", city: "Ottawa", averageRating: 4.5, reviewCount: 2 };

test("a conforming item passes, extra fields allowed", () => {
  expect(contractViolations({ ...item, isVerified: true }, BROKER_LIST_ITEM, "item")).toEqual([]);
});

test("a renamed, retyped, nulled or dropped field is reported with its path", () => {
  const { reviewCount: _dropped, ...withoutCount } = item;
  expect(contractViolations({ ...item, id: 1 }, BROKER_LIST_ITEM, "item")).toEqual(["item.id: expected string, got 1"]);
  expect(contractViolations({ ...item, averageRating: null }, BROKER_LIST_ITEM, "item")).toEqual(["item.averageRating: expected number, got null"]);
  expect(contractViolations({ ...item, reviewCount: 2.5 }, BROKER_LIST_ITEM, "item")).toEqual(["item.reviewCount: expected integer, got 2.5"]);
  expect(contractViolations(withoutCount, BROKER_LIST_ITEM, "item")).toEqual(["item.reviewCount: missing (spec type integer)"]);
  expect(contractViolations([item], BROKER_LIST_ITEM, "item")).toHaveLength(1);
});
