import { publishedBrokerOrThrow } from "./publishedBroker.ts";
import { z } from "zod";
import { brokerDetailSchema, brokerSlug } from "../../schemas/broker.ts";
import { scopedProcedure } from "../trpc.ts";
import type { Services } from "../../services.ts";

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
 * brokers.get's answer for `input` as JSON text, when the directory has it rendered already (see
 * BrokerStore.renderedDetail): the bytes the procedure's answer is written as, byte for byte,
 * so an adapter that would only serialize the answer may send these instead of calling it. The
 * input passes the procedure's own schema first; anything else (invalid input, no such broker,
 * a detail not rendered) is undefined: call the procedure, which answers it in its words.
 */
export function renderedBrokerDetail(services: Services, input: unknown): Uint8Array<ArrayBuffer> | undefined {
  const parsed = getBrokerInput.safeParse(input);
  return parsed.success ? services.brokers.renderedDetail(parsed.data.slug) : undefined;
}
