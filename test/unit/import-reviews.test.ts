import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { importInputFromPath } from "../../src/importing/byteSource.ts";
import { readReviewImport } from "../../src/importing/reviewImport.ts";
import { importInput, readEvents } from "../support/importFiles.ts";

const HEADER = "externalId,brokerExternalId,brokerSlug,rating,title,content,authorName,createdAt";
const GOOD = "r1,B-1,,5,Great,Found me a better rate,Marie Tremblay,2025-03-04T12:00:00-05:00";

const reviewsOf = (rows: readonly string[]) => readEvents(readReviewImport(importInput([HEADER, ...rows].join("\n"))));

test("a review: its broker named by externalId or slug, its time in UTC with milliseconds", async () => {
  const { records, errors } = await reviewsOf([GOOD, "r2,,maple-leaf,4,,Quick,Dan O.,2025-03-05"]);
  expect(errors).toEqual([]);
  expect(records.map((r) => r.record)).toEqual([
    { externalId: "r1", brokerExternalId: "B-1", brokerSlug: null, rating: 5, title: "Great", content: "Found me a better rate", authorName: "Marie Tremblay", createdAt: "2025-03-04T17:00:00.000Z" },
    { externalId: "r2", brokerExternalId: null, brokerSlug: "maple-leaf", rating: 4, title: "", content: "Quick", authorName: "Dan O.", createdAt: "2025-03-05T00:00:00.000Z" },
  ]);
});

describe("each bad review is reported with its line, its column and what to do", () => {
  const cases: [string, string, string][] = [
    ["a rating out of range", "r1,B-1,,6,Great,Text,Ann,2025-03-04", "line 2, rating: must be a whole number from 1 to 5 (got 6)"],
    ["a rating with a fraction", "r1,B-1,,4.5,Great,Text,Ann,2025-03-04", "line 2, rating: must be a whole number from 1 to 5 (got 4.5)"],
    ["a rating in words", "r1,B-1,,five,Great,Text,Ann,2025-03-04", 'line 2, rating: must be a whole number from 1 to 5 (got "five")'],
    ["no broker", "r1,,,5,Great,Text,Ann,2025-03-04", "line 2, brokerExternalId: is required: the broker's externalId, or brokerSlug"],
    ["the broker named twice", "r1,B-1,b-one,5,Great,Text,Ann,2025-03-04", "line 2, brokerExternalId: must not be given with brokerSlug: name the broker one way"],
    ["no text", "r1,B-1,,5,Great,,Ann,2025-03-04", "line 2, content: is required"],
    ["no author", "r1,B-1,,5,Great,Text,,2025-03-04", "line 2, authorName: is required"],
    ["a date people write", "r1,B-1,,5,Great,Text,Ann,04/03/2025", 'line 2, createdAt: must be an ISO 8601 date or time with its zone, e.g. 2025-03-04T17:22:05Z or 2025-03-04 (got "04/03/2025")'],
    ["a time without its zone", "r1,B-1,,5,Great,Text,Ann,2025-03-04T10:00:00", 'line 2, createdAt: must be an ISO 8601 date or time with its zone, e.g. 2025-03-04T17:22:05Z or 2025-03-04 (got "2025-03-04T10:00:00")'],
    ["a date that does not exist", "r1,B-1,,5,Great,Text,Ann,2025-02-30T10:00:00Z", 'line 2, createdAt: must be an ISO 8601 date or time with its zone, e.g. 2025-03-04T17:22:05Z or 2025-03-04 (got "2025-02-30T10:00:00Z")'],
    ["a date in the future", "r1,B-1,,5,Great,Text,Ann,2999-01-01", 'line 2, createdAt: must not be in the future (got "2999-01-01")'],
  ];
  for (const [what, row, message] of cases) {
    test(what, async () => {
      const { records, errors } = await reviewsOf([row, GOOD.replace("r1", "r2")]);
      expect(errors).toEqual([message]);
      expect(records.map((r) => r.line)).toEqual([3]);
    });
  }
});

test("the same externalId twice: both passed on in order (the last wins), the repeat reported", async () => {
  const { records, duplicates } = await reviewsOf([GOOD, GOOD.replace("Great", "Updated"), GOOD.replace("r1", "r3"), GOOD.replace("Great", "Again")]);
  expect(records.map((r) => [r.line, r.record.title])).toEqual([[2, "Great"], [3, "Updated"], [4, "Great"], [5, "Again"]]);
  expect(duplicates).toEqual([
    'line 3, externalId: "r1" was also on line 2: this review replaces that one (the last wins)',
    'line 5, externalId: "r1" was also on line 3: this review replaces that one (the last wins)',
  ]);
});

test("the example reviews file imports whole", async () => {
  const { records, errors, duplicates } = await readEvents(readReviewImport(importInputFromPath(join(import.meta.dir, "../../db/examples/reviews.ndjson"))));
  expect({ errors, duplicates }).toEqual({ errors: [], duplicates: [] });
  expect(records).toHaveLength(15);
  expect(records.filter((r) => r.record.brokerSlug !== null)).toHaveLength(2);
});
