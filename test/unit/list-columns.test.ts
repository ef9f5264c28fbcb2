import { describe, expect, test } from "bun:test";
import { ListColumns } from "../../src/storage/search/listColumns.ts";
import { seededRandom } from "../support/seededRandom.ts";

/** Text as brokers have it: plain, accented (Latin-1, which SQLite gives as 16-bit strings), beyond Latin-1, or empty. */
const ALPHABETS = ["abcdefghij klmno-", "éèêàçôÉÈÎ", "Nguyễn 李 Ωμέγα 🏠", ""];

function randomText(random: () => number): string {
  let text = "";
  const length = Math.floor(random() * 40);
  for (let i = 0; i < length; i++) {
    const alphabet = ALPHABETS[random() < 0.9 ? 0 : random() < 0.7 ? 1 : 2]!;
    text += [...alphabet][Math.floor(random() * [...alphabet].length)];
  }
  return text;
}

interface Written {
  name: string;
  slug: string;
  description: string;
  province: string;
  city: string;
}

/** Writes n ranks (some skipped), seals, and returns what each rank must read back. */
function written(n: number, seed: number, skipChance: number): { list: ListColumns; expected: (Written | undefined)[] } {
  const random = seededRandom(seed);
  const list = new ListColumns(n);
  const expected: (Written | undefined)[] = [];
  for (let rank = 0; rank < n; rank++) {
    if (random() < skipChance) {
      expected.push(undefined);
      continue;
    }
    const row = { name: randomText(random), slug: randomText(random), description: randomText(random), province: "ON", city: randomText(random) };
    list.set(rank, row.name, row.slug, row.description, row.province, row.city);
    expected.push(row);
  }
  list.seal();
  return { list, expected };
}

describe("ListColumns", () => {
  // 256 ranks share a chunk: sizes at, around and well past the chunk's edge.
  for (const n of [0, 1, 255, 256, 257, 511, 512, 1_000]) {
    for (const skipChance of [0, 0.2, 0.97]) {
      test(`${n} ranks, ${skipChance * 100} % skipped: every rank reads back what was written`, () => {
        const { list, expected } = written(n, n * 31 + skipChance * 100, skipChance);
        expected.forEach((row, rank) => {
          const item = list.item(rank, rank + 1, 4.5, 3, true);
          const want = row ?? { name: "", slug: "", description: "", province: "", city: "" };
          const read: Written = { name: item.name, slug: item.slug, description: item.description, province: item.province, city: item.city };
          expect(read).toEqual(want);
          expect(list.nameAndSlug(rank)).toEqual({ name: want.name, slug: want.slug });
          expect(item).toMatchObject({ id: String(rank + 1), averageRating: 4.5, reviewCount: 3, isVerified: true });
        });
      });
    }
  }

  test("a chunk with a character beyond Latin-1 keeps it, and the chunks beside it are unaffected", () => {
    const list = new ListColumns(600);
    for (let rank = 0; rank < 600; rank++) {
      const name = rank === 300 ? "Trần 李 🏠" : `Broker ${rank} Montréal`;
      list.set(rank, name, `broker-${rank}`, "Assurance habitation à Québec", "QC", "Québec");
    }
    list.seal();
    expect(list.nameAndSlug(300)).toEqual({ name: "Trần 李 🏠", slug: "broker-300" });
    expect(list.nameAndSlug(299)).toEqual({ name: "Broker 299 Montréal", slug: "broker-299" });
    expect(list.item(599, 1, 0, 0, false).description).toBe("Assurance habitation à Québec");
  });

  test("ranks come in any order, each once; a rank set twice or past the end is refused, not misfiled", () => {
    const list = new ListColumns(4);
    list.set(2, "c", "c", "", "ON", "Ottawa");
    list.set(0, "a", "a", "", "QC", "Montréal");
    expect(() => list.set(2, "x", "x", "", "ON", "Ottawa")).toThrow("set twice or out of range");
    expect(() => list.set(4, "d", "d", "", "ON", "Ottawa")).toThrow("set twice or out of range");
    expect(() => list.set(-1, "d", "d", "", "ON", "Ottawa")).toThrow("set twice or out of range");
    list.seal();
    expect(list.nameAndSlug(2)).toEqual({ name: "c", slug: "c" });
    expect(list.item(0, 7, 0, 0, false)).toMatchObject({ name: "a", province: "QC", city: "Montréal" });
    expect(list.nameAndSlug(1)).toEqual({ name: "", slug: "" });
    expect([list.hasSlug(2, "c"), list.hasSlug(1, "c"), list.hasSlug(2, "C"), list.hasSlug(2, "cc")]).toEqual([true, false, false, false]);
  });
});
