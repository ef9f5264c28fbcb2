import { expect, test } from "bun:test";
import { estimateBytes } from "../../src/cache/estimateBytes.ts";
import { brokerDetailBytes, reviewPageBytes } from "../../src/storage/stores/directoryReadBytes.ts";
import type { BrokerDetail } from "../../src/schemas/broker.ts";
import type { Review } from "../../src/schemas/review.ts";

const location = (i: number) => ({
  id: String(400 + i),
  address: `${100 + i} rue Sainte-Catherine Ouest, bureau ${i}`,
  city: "Saint-Jean-sur-Richelieu",
  province: "QC" as const,
  postalCode: "J3B 1A1",
  phone: "+14505550142",
  latitude: 45.31,
  longitude: -73.26,
  isPrimary: i === 0,
});

const detail = (offices: number, words: number): BrokerDetail => ({
  id: "93958",
  name: "Assurances Bélanger & Fils Ltée",
  slug: "assurances-belanger-fils-ltee-saint-jean-sur-richelieu",
  description: "Courtier familial : auto, habitation, entreprises. ".repeat(words),
  province: "QC",
  city: "Saint-Jean-sur-Richelieu",
  averageRating: 4.12,
  reviewCount: 17,
  isVerified: true,
  email: "info@assurances-belanger-fils-ltee-saint-jean-sur-richelieu.ca",
  phone: "+14505550142",
  website: "https://www.assurances-belanger-fils-ltee-saint-jean-sur-richelieu.ca",
  foundingYear: 1987,
  teamSize: "11-50",
  licenseNumber: "QC-123456",
  rating: { averageRating: 4.12, totalReviews: 17, distribution: { "1": 0, "2": 1, "3": 2, "4": 8, "5": 6 } },
  locations: Array.from({ length: offices }, (_, i) => location(i)),
  insuranceLines: ["Auto", "Home", "Commercial", "Farm", "Real Estate"].slice(0, 1 + (words % 5)),
  specialties: ["Small business", "Young drivers"],
  languages: ["French", "English", "Punjabi"],
  createdAt: "2025-03-04T17:22:05.120Z",
  updatedAt: "2025-03-04T17:22:05.120Z",
});

const review = (i: number): Review => ({
  id: String(5_120_000 + i),
  brokerId: "93958",
  rating: 1 + (i % 5),
  title: "Service impeccable",
  content: "Très bon service, je recommande. ".repeat(1 + (i % 7)),
  authorName: "Marie T.",
  createdAt: "2025-03-04T17:22:05.120Z",
});

test("a broker detail's cheap size is never below what the general estimate says", () => {
  for (const [offices, words] of [[1, 0], [1, 1], [3, 4], [12, 20]] as const) {
    const d = detail(offices, words);
    expect(brokerDetailBytes(d)).toBeGreaterThanOrEqual(estimateBytes(d));
    // …and not so far above it that the cache holds needlessly few.
    expect(brokerDetailBytes(d)).toBeLessThan(1.5 * estimateBytes(d));
  }
});

test("a review page's cheap size is never below what the general estimate says", () => {
  for (const n of [0, 1, 5, 20, 100]) {
    const page = Array.from({ length: n }, (_, i) => review(i));
    expect(reviewPageBytes(page)).toBeGreaterThanOrEqual(estimateBytes(page));
    expect(reviewPageBytes(page)).toBeLessThan(1.5 * estimateBytes(page));
  }
});
