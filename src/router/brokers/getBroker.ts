import { publishedBrokerOrThrow } from "./publishedBroker.ts";
import { z } from "zod";
import { brokerDetailSchema, brokerSlug } from "../../schemas/broker.ts";
import { scopedProcedure } from "../trpc.ts";
import type { RenderedAnswer } from "../renderedAnswer.ts";

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

/**
 * brokers.get's answer as rendered ahead of time (BrokerStore.renderedDetail): every published
 * broker's, once the index has rendered them. The input passes the procedure's own schema first.
 */
export const renderedBrokerDetail: RenderedAnswer = {
  read(services, input) {
    const parsed = getBrokerInput.safeParse(input);
    return parsed.success ? services.brokers.renderedDetail(parsed.data.slug) : undefined;
  },
};
