import { z } from "zod";
import { brokerListItemSchema } from "../../schemas/broker.ts";
import { facetsSchema } from "../../schemas/discovery.ts";
import { MAX_PAGE, wholeNumberParam } from "../../schemas/pagination.ts";
import { checkDiscoveryInput, selectableFacets } from "../brokers/discoveryRules.ts";
import { discoveryInput } from "../brokers/searchBrokers.ts";
import { scopedProcedure } from "../trpc.ts";
import { nearestOffice } from "./nearestOffice.ts";
import { brokerPhotoUrl } from "./photoUrl.ts";

export const EMBED_BROKERS_DEFAULT_LIMIT = 12;
export const EMBED_BROKERS_MAX_LIMIT = 50;

/** The search's filters, order and facets, with the widget's page sizes ("Show more" asks for page 2, 3…). */
export const embedBrokersInput = z.object({
  ...discoveryInput,
  page: wholeNumberParam(1, MAX_PAGE).optional().default(1).describe("Page number, from 1 (default 1): the widget's Show more"),
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
    distanceKm: z.number().optional().describe("Only with near: km to the broker's nearest office within the radius, one decimal"),
    nearestOffice: z
      .object({ city: z.string(), province: z.string() })
      .optional()
      .describe("Only with near: the office distanceKm is measured to (city and province may differ from the primary office's)"),
  });

export const embedBrokersOutput = z.object({
  data: z.array(embedBrokerSchema).describe("One page of matching published brokers, in the order asked for (alphabetical by default)"),
  total: z.number().int().describe("How many published brokers match in all"),
  facets: facetsSchema.optional(),
});

/** The directory widget's list: published brokers matching the filters, with their lines and picture. */
export const embedBrokers = scopedProcedure("brokers:read")
  .meta({ directoryRead: true })
  .input(embedBrokersInput)
  .output(embedBrokersOutput)
  .query(({ ctx, input }) => {
    checkDiscoveryInput(input);
    const { page, limit, ...query } = input;
    const { items, total, facets } = ctx.services.brokers.search(query, page, limit);
    const lines = ctx.services.brokers.insuranceLinesOf(items.map((b) => b.id));
    const shown = selectableFacets(input, facets);
    const near = input.near;
    return {
      data: items.map(({ description: _description, ...b }) => {
        const office = near && b.distanceKm !== undefined ? nearestOffice(ctx.services.brokers.findBySlug(b.slug), near) : undefined;
        return {
          ...b,
          photoUrl: brokerPhotoUrl(ctx.baseUrl, b.slug),
          insuranceLines: lines.get(b.id) ?? [],
          ...(office ? { nearestOffice: office } : {}),
        };
      }),
      total,
      ...(shown ? { facets: shown } : {}),
    };
  });
