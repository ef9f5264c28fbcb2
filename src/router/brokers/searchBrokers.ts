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
