/**
 * A list item's JSON in two parts (src/storage/search/listItemJson.ts): the head the index keeps
 * rendered and the tail written from its ratings at each answer must make JSON.stringify(item)
 * byte for byte, whatever the text holds (quotes, backslashes, control characters, text beyond
 * Latin-1, a name that spells the ratings key) and whatever the ratings are.
 */
import { expect, test } from "bun:test";
import type { BrokerListItem } from "../../src/schemas/broker.ts";
import { listItemHead, listItemTail } from "../../src/storage/search/listItemJson.ts";

const item = (name: string, description: string, averageRating: number, reviewCount: number, isVerified: boolean): BrokerListItem => ({
  id: "42",
  name,
  slug: "acme-insurance",
  description,
  province: "QC",
  city: "Montréal",
  averageRating,
  reviewCount,
  isVerified,
});

const names = ["Acme", 'Acme "averageRating":5', "Nguyễn 李 🏠", "back\\slash", "", "tab\tnew\nline\u0001", '","averageRating":'];
const ratings: [number, number, boolean][] = [[0, 0, false], [4.25, 12, true], [5, 1, false], [1.5, 100000, true], [3.33, 7, false]];

test("head + tail is JSON.stringify of the item, for any text and ratings", () => {
  for (const name of names) {
    for (const [averageRating, reviewCount, isVerified] of ratings) {
      const whole = item(name, `${name} description`, averageRating, reviewCount, isVerified);
      // The head does not depend on the ratings: the index renders it with zeros.
      const head = listItemHead(item(name, `${name} description`, 0, 0, false));
      expect(head + listItemTail(averageRating, reviewCount, isVerified)).toBe(JSON.stringify(whole));
    }
  }
});

test("the head ends at the ratings key, after every text field", () => {
  const head = listItemHead(item('","averageRating":9,"x":"', "d", 0, 0, false));
  expect(head.endsWith(',"city":"Montréal","averageRating":')).toBe(true);
});
