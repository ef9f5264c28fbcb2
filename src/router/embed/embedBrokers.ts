import { z } from "zod";
import { brokerListItemSchema } from "../../schemas/broker.ts";
import { cityFilter, insuranceTypeFilter, provinceFilter } from "../../schemas/filters.ts";
import { wholeNumberParam } from "../../schemas/pagination.ts";
import { scopedProcedure } from "../trpc.ts";
import { brokerPhotoUrl } from "./photoUrl.ts";

export const EMBED_BROKERS_DEFAULT_LIMIT = 12;
export const EMBED_BROKERS_MAX_LIMIT = 50;

export const embedBrokersInput = z.object({
  province: provinceFilter,
  city: cityFilter,
  insuranceType: insuranceTypeFilter,
  limit: wholeNumberParam(1, EMBED_BROKERS_MAX_LIMIT)
    .optional()
    .default(EMBED_BROKERS_DEFAULT_LIMIT)
    .describe(`Brokers to return, 1 to ${EMBED_BROKERS_MAX_LIMIT} (default ${EMBED_BROKERS_DEFAULT_LIMIT})`),
});

/** Spec 2.6, plus the id and the verification mark of the list item (2.1) it is made from. */
export const embedBrokerSchema = brokerListItemSchema
  .pick({ id: true, name: true, slug: true, city: true, province: true, averageRating: true, reviewCount: true, isVerified: true })
  .extend({
    photoUrl: z.string().describe("Absolute URL of the broker's picture (an SVG monogram; no key needed)"),
    insuranceLines: z.array(z.string()),
  });

export const embedBrokersOutput = z.object({
  data: z.array(embedBrokerSchema).describe("The first `limit` matching published brokers, alphabetical"),
  total: z.number().int().describe("How many published brokers match in all"),
});

/** The directory widget's list: published brokers matching the filters, with their lines and picture. */
export const embedBrokers = scopedProcedure("brokers:read")
  .input(embedBrokersInput)
  .output(embedBrokersOutput)
  .query(({ ctx, input }) => {
    const { limit, ...filter } = input;
    const { items, total } = ctx.services.brokers.search(filter, 1, limit);
    const lines = ctx.services.brokers.insuranceLinesOf(items.map((b) => b.id));
    return {
      data: items.map(({ description: _description, ...b }) => ({
        ...b,
        photoUrl: brokerPhotoUrl(ctx.baseUrl, b.slug),
        insuranceLines: lines.get(b.id) ?? [],
      })),
      total,
    };
  });
