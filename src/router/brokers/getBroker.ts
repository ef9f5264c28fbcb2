import { publishedBrokerOrThrow } from "./publishedBroker.ts";
import { z } from "zod";
import { brokerDetailSchema, brokerSlug } from "../../schemas/broker.ts";
import { scopedProcedure } from "../trpc.ts";

export const getBrokerInput = z.object({ slug: brokerSlug });

/**
 * One published broker with its offices, lines and rating breakdown. Its answer is built by
 * our code from typed rows (see Meta.trustedOutput; test/unit/trusted-output.test.ts).
 */
export const getBroker = scopedProcedure("brokers:read")
  .meta({ trustedOutput: true, directoryRead: true })
  .input(getBrokerInput)
  .output(brokerDetailSchema)
  .query(({ ctx, input }) => {
    return publishedBrokerOrThrow(ctx.services, input.slug);
  });
