import { z } from "zod";
import { officeMapUrl } from "../../domain/mapLink.ts";
import { brokerDetailSchema, brokerSlug, locationSchema } from "../../schemas/broker.ts";
import { publishedBrokerOrThrow } from "../brokers/publishedBroker.ts";
import { scopedProcedure } from "../trpc.ts";
import { brokerPhotoUrl } from "./photoUrl.ts";

export const embedBrokerInput = z.object({ slug: brokerSlug });

/**
 * The directory widget's broker profile: the detail of spec 2.2 (the same fields as
 * GET /brokers/{slug}, which embed keys may not call), plus the picture and a map link per office.
 */
export const embedBrokerDetailSchema = brokerDetailSchema.extend({
  photoUrl: z.string().describe("Absolute URL of the broker's picture (an SVG monogram; no key needed)"),
  locations: z
    .array(locationSchema.extend({ mapUrl: z.string().describe("The office on OpenStreetMap: at its coordinates, else a search for its address") }))
    .describe("Offices, the primary one first; exactly one has isPrimary true"),
});

/** A published broker's profile for a partner page; reviews page through embed.reviews. */
export const embedBroker = scopedProcedure("brokers:read")
  .meta({ directoryRead: true })
  .input(embedBrokerInput)
  .output(embedBrokerDetailSchema)
  .query(({ ctx, input }) => {
    const broker = publishedBrokerOrThrow(ctx.services, input.slug);
    const offices = [...broker.locations].sort((a, b) => Number(b.isPrimary) - Number(a.isPrimary));
    return {
      ...broker,
      photoUrl: brokerPhotoUrl(ctx.baseUrl, broker.slug),
      locations: offices.map((office) => ({ ...office, mapUrl: officeMapUrl(office) })),
    };
  });
