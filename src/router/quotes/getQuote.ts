import { CodedError } from "../../schemas/errorCodes.ts";
import { z } from "zod";
import { scopedProcedure } from "../trpc.ts";
import { quoteId, quoteSchema } from "../../schemas/quote.ts";
import { toQuoteView } from "./quoteView.ts";

export const getQuoteInput = z.object({ quoteId });
export { quoteSchema as getQuoteOutput };

/** A quote of the caller's workspace; expired quotes stay readable and say so. */
export const getQuote = scopedProcedure("quotes:write")
  .input(getQuoteInput)
  .output(quoteSchema)
  .query(async ({ ctx, input }) => {
    const quote = await ctx.services.quotes.find(input.quoteId, ctx.principal.workspaceId);
    // Another workspace's quote gets the same answer as an unknown id: ids reveal nothing.
    if (!quote) {
      throw new CodedError("quote_not_found", `No quote with the id ${JSON.stringify(input.quoteId)} exists in this workspace.`);
    }
    return toQuoteView(quote, ctx.services.now());
  });
