import type { NearPoint } from "../../domain/geo/nearPoint.ts";
import { provinceByCode, type ProvinceCode } from "../../domain/provinces.ts";
import type { BrokerSort, FacetCounts } from "../../schemas/discovery.ts";
import { invalidInput, type InputProblem } from "../quotes/invalidInput.ts";
import { said } from "../../schemas/frenchMessages.ts";

export interface DiscoveryInput {
  q?: string;
  province?: ProvinceCode;
  near?: NearPoint;
  sort: BrokerSort;
}

/**
 * Rules between search parameters, checked after each passed its own schema (here rather
 * than in a zod refinement, so MCP can still derive its argument schema from the input):
 * a sort that needs another parameter, and a postal code in another province than `province`.
 */
export function checkDiscoveryInput(input: DiscoveryInput): void {
  const problems: InputProblem[] = [];
  if (input.sort === "distance" && !input.near) {
    problems.push({ path: ["sort"], message: said("distance needs near: give a postal code (M5V 3L9) or latitude,longitude in near", "distance exige near : donnez un code postal (M5V 3L9) ou latitude,longitude dans near") });
  }
  if (input.sort === "relevance" && input.q === undefined) {
    problems.push({ path: ["sort"], message: said("relevance needs q: give words to search for, or sort by name, rating or reviews", "relevance exige q : donnez des mots à chercher, ou triez par name, rating ou reviews") });
  }
  if (input.near?.province && input.province && input.near.province !== input.province) {
    const near = provinceByCode(input.near.province);
    const stated = provinceByCode(input.province);
    problems.push({
      path: ["near"],
      message: `${input.near.fsa} is in ${near.en} (${near.code}), not in ${stated.en} (${stated.code}): drop one of near and province, or make them agree`,
      fr: `${input.near.fsa} se trouve dans : ${near.fr} (${near.code}), pas dans : ${stated.fr} (${stated.code}) ; retirez near ou province, ou accordez-les`,
    });
  }
  if (problems.length > 0) throw invalidInput(problems);
}

/**
 * Facet values that the same request could select. Near a postal code, another province would
 * be refused (above), so the province facet keeps only the postal code's own, even when a
 * matching broker also has an office elsewhere.
 */
export function selectableFacets(input: DiscoveryInput, facets: FacetCounts | undefined): FacetCounts | undefined {
  const province = input.near?.province;
  if (!facets?.province || !province) return facets;
  return { ...facets, province: facets.province.filter((entry) => entry.value === province) };
}
