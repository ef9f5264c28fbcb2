import { expect, test } from "bun:test";
import { estimateBytes } from "../../src/cache/estimateBytes.ts";
import { searchAnswerBytes } from "../../src/storage/search/searchAnswerBytes.ts";

const item = (i: number, distanceKm?: number) => ({
  id: String(900_000 + i),
  name: `Assurances Bélanger & Fils ${i}`,
  slug: `assurances-belanger-fils-${i}`,
  description: "Courtier familial à Montréal : auto, habitation, entreprises. ".repeat(1 + (i % 4)),
  province: "QC" as const,
  city: "Montréal",
  averageRating: 4.25,
  reviewCount: 120 + i,
  isVerified: i % 2 === 0,
  ...(distanceKm === undefined ? {} : { distanceKm }),
});

test("a search answer's cheap size is never below what the general estimate says", () => {
  const facet = (n: number) => Array.from({ length: n }, (_, i) => ({ value: `Saint-Jean-sur-Richelieu ${i}`, count: 1000 - i }));
  const answers = [
    { items: [], total: 0 },
    { items: Array.from({ length: 20 }, (_, i) => item(i)), total: 40_000 },
    { items: Array.from({ length: 100 }, (_, i) => item(i, i / 10)), total: 40_000, facets: { province: facet(13), city: facet(50), insuranceType: facet(12), language: facet(50) } },
    { items: [item(1, 0)], total: 1, facets: { language: [] } },
  ];
  for (const answer of answers) expect(searchAnswerBytes(answer)).toBeGreaterThanOrEqual(estimateBytes(answer));
});
