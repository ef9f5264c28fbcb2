import { z } from "zod";
import { brokerListItemSchema } from "../../schemas/broker.ts";
import { cityFilter, insuranceTypeFilter, provinceFilter, textQuery } from "../../schemas/filters.ts";
import { pageInput, paginate, pagedSchema } from "../../schemas/pagination.ts";
import { scopedProcedure } from "../trpc.ts";

export const searchBrokersInput = z.object({
  q: textQuery,
  province: provinceFilter,
  city: cityFilter,
  insuranceType: insuranceTypeFilter,
  ...pageInput,
});

export const searchBrokersOutput = pagedSchema(brokerListItemSchema, "Published brokers, alphabetical by name");

/** Published brokers matching every filter given, alphabetical by name (case and accents ignored). */
export const searchBrokers = scopedProcedure("brokers:read")
  .input(searchBrokersInput)
  .output(searchBrokersOutput)
  .query(({ ctx, input }) => {
    const { page, limit, ...filter } = input;
    const { items, total } = ctx.services.brokers.search(filter, page, limit);
    return { data: items, pagination: paginate(page, limit, total) };
  });
