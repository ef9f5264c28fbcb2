/**
 * The discovery scenarios (issue 13): every URL distinct within a cycle longer than the
 * response and result caches, so each request runs the search, the order and the facet counts.
 * - (10) near a postal area, nearest first, four facets: 1,611 FSAs × 10 radii.
 * - (11) free text by relevance, four facets: the search words of (2), pages 1 to 3 (13,134
 *   URLs; with pages 1 and 2 only, its 8,756 URLs all fit the response cache and, until
 *   2026-11-25, the scenario measured mostly cached answers).
 * - (12) language + minRating + verified, by rating: 12 languages × 51 thresholds × 3 pages,
 *   each anywhere and in each of the 13 provinces (a cycle of 20,000 distinct URLs: without
 *   the provinces its 1,836 URLs all fit the response cache and the scenario measured hits).
 */
import { fsaCodes } from "../../src/domain/geo/fsaCentroids.ts";
import type { LoadRequest } from "./wrk.ts";

const FACETS = "facets=province,city,insuranceType,language";
const RADII = [5, 10, 15, 20, 25, 30, 40, 50, 75, 100];
const LANGUAGES = ["English", "French", "fr", "Punjabi", "Mandarin", "Cantonese", "Spanish", "Italian", "Portuguese", "Tagalog", "Arabic", "Ukrainian"];
/** wrk's Lua table holds at most this many requests (LuaJIT's constants per function). */
const MAX_REQUESTS = 20_000;

export function nearRequests(get: (path: string) => LoadRequest): LoadRequest[] {
  return fsaCodes()
    .flatMap((fsa) => RADII.map((radius) => get(`/api/v1/brokers?near=${fsa}&radiusKm=${radius}&sort=distance&${FACETS}`)))
    .slice(0, MAX_REQUESTS);
}

export function relevanceRequests(get: (path: string) => LoadRequest, queries: readonly string[]): LoadRequest[] {
  return [1, 2, 3]
    .flatMap((page) => queries.map((q) => get(`/api/v1/brokers?q=${encodeURIComponent(q)}&sort=relevance&page=${page}&${FACETS}`)))
    .slice(0, MAX_REQUESTS);
}

const PROVINCES = ["", "AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT"];

export function filterRequests(get: (path: string) => LoadRequest): LoadRequest[] {
  const thresholds = Array.from({ length: 51 }, (_, i) => (i / 10).toFixed(1));
  return [1, 2, 3]
    .flatMap((page) =>
      LANGUAGES.flatMap((language) =>
        thresholds.flatMap((min) =>
          PROVINCES.map((province) =>
            get(`/api/v1/brokers?language=${language}&minRating=${min}&verified=true&sort=rating&page=${page}${province ? `&province=${province}` : ""}`),
          ),
        ),
      ),
    )
    .slice(0, MAX_REQUESTS);
}
