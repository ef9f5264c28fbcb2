import { z } from "zod";
import { brokerListItemSchema } from "../../schemas/broker.ts";
import {
  brokerSortParam,
  facetsParam,
  facetsSchema,
  languageParam,
  minRatingParam,
  nearParam,
  radiusKmParam,
  specialtyParam,
  verifiedParam,
} from "../../schemas/discovery.ts";
import { cityFilter, insuranceTypeFilter, provinceFilter, textQuery } from "../../schemas/filters.ts";
import { pageInput, paginate, paginationSchema } from "../../schemas/pagination.ts";
import type { RenderedAnswer } from "../renderedAnswer.ts";
import { scopedProcedure } from "../trpc.ts";
import { checkDiscoveryInput, selectableFacets } from "./discoveryRules.ts";

/** The filters, order and facets a broker search takes (REST, MCP and the embed list share them). */
export const discoveryInput = {
  q: textQuery,
  province: provinceFilter,
  city: cityFilter,
  insuranceType: insuranceTypeFilter,
  near: nearParam,
  radiusKm: radiusKmParam,
  language: languageParam,
  specialty: specialtyParam,
  minRating: minRatingParam,
  verified: verifiedParam,
  sort: brokerSortParam,
  facets: facetsParam,
};

export const searchBrokersInput = z.object({ ...discoveryInput, ...pageInput });

export const searchBrokerItemSchema = brokerListItemSchema.extend({
  distanceKm: z.number().optional().describe("Only with near: km to the broker's nearest office within the radius, one decimal"),
});

export const searchBrokersOutput = z.object({
  data: z.array(searchBrokerItemSchema).describe("Published brokers matching every filter, in the order asked for (alphabetical by default)"),
  pagination: paginationSchema,
  facets: facetsSchema.optional(),
});

/** Published brokers matching every filter given, in the order asked for (alphabetical by name by default). */
export const searchBrokers = scopedProcedure("brokers:read")
  .meta({ trustedOutput: true, directoryRead: true })
  .input(searchBrokersInput)
  .output(searchBrokersOutput)
  .query(({ ctx, input }) => {
    checkDiscoveryInput(input);
    const { page, limit, ...query } = input;
    const { items, total, facets } = ctx.services.brokers.search(query, page, limit);
    const shown = selectableFacets(input, facets);
    return { data: items, pagination: paginate(page, limit, total), ...(shown ? { facets: shown } : {}) };
  });

type SearchBrokersInput = z.output<typeof searchBrokersInput>;

/**
 * A search's page as the directory holds its list items rendered (see BrokerStore.renderedSearch):
 * the procedure's answer, byte for byte, for any search but one near a point (each item then
 * carries its distance) or with facets, and but one the rules between parameters refuse (the
 * procedure answers that in its words). Not kept: a page is written from the rendered items at
 * each request (a few microseconds), and REST keeps the pages asked again soon.
 */
export const renderedSearchPage: RenderedAnswer = {
  read(services, input, parsed) {
    const data = parsed === undefined ? searchBrokersInput.safeParse(input).data : (parsed as SearchBrokersInput);
    // Near a point or with facets, the index answers undefined itself (SearchIndex.renderedSearch).
    if (data === undefined || !followsTheRules(data)) return undefined;
    const { page, limit, ...query } = data;
    return services.brokers.renderedSearch(query, page, limit, SEARCH_OPEN, (total) => `,"pagination":${JSON.stringify(paginate(page, limit, total))}}`);
  },
};

/** What the procedure's answer, `{ data, pagination }`, starts with before its items. */
const SEARCH_OPEN = '{"data":';

function followsTheRules(input: SearchBrokersInput): boolean {
  try {
    checkDiscoveryInput(input);
    return true;
  } catch {
    return false;
  }
}
