import { CodedError } from "../../schemas/errorCodes.ts";
import type { Surface } from "../../auth/admitRequest.ts";
import type { QuoteLine } from "../../domain/quotes/details.ts";
import { LINE_LABELS, resolveQuoteLine } from "../../domain/quotes/insuranceTypes.ts";
import { postalCodeMismatchMessage, postalCodeMismatchMessageFr } from "../../domain/quotes/postalProvince.ts";
import { postalCodeBelongsTo } from "../../domain/postalCode.ts";
import { provinceByCode } from "../../domain/provinces.ts";
import { MIN_OFFERS, rateQuote, type RatingRequest } from "../../domain/rating/ratingEngine.ts";
import { quoteSchema } from "../../schemas/quote.ts";
import { quoteDetailsSchemas, type QuoteDetailsSchemas } from "../../schemas/quoteDetails.ts";
import { answerOnce, createOnce } from "../idempotency.ts";
import { scopedProcedure } from "../trpc.ts";
import { createQuoteInput } from "./createQuote.schema.ts";
import { carriedFrench, invalidInput, type InputProblem } from "./invalidInput.ts";
import { toQuoteView } from "./quoteView.ts";
import { deliverSoon, webhookEvent } from "../webhooks/webhookEvent.ts";

export { createQuoteInput, quoteSchema as createQuoteOutput };

export const QUOTE_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

/** Where a quote or lead came from, as stored. tRPC is the same server-side API as REST. */
export function sourceOf(surface: Surface): "rest" | "embed" | "mcp" {
  return surface === "trpc" || surface === "console" ? "rest" : surface;
}

// The detail schemas depend on the year (vehicleYear ≤ next year): built once per year.
let detailSchemas: { year: number; schemas: QuoteDetailsSchemas } | undefined;
function detailSchemasAt(now: Date): QuoteDetailsSchemas {
  if (detailSchemas?.year !== now.getUTCFullYear()) {
    detailSchemas = { year: now.getUTCFullYear(), schemas: quoteDetailsSchemas(now) };
  }
  return detailSchemas.schemas;
}

/**
 * Prices a quote request with the carriers of the catalogue that write the line in the
 * province, stores the request and its offers in the caller's workspace, and returns them.
 */
export const createQuote = scopedProcedure("quotes:write")
  .meta({ idempotent: true })
  .input(createQuoteInput)
  .output(quoteSchema)
  .mutation(({ ctx, input, path }) => createOnce(ctx, path, input, async (claim) => {
    const nowMs = ctx.services.now();
    const now = new Date(nowMs);
    const line = resolveQuoteLine(input.insuranceType) as QuoteLine; // the schema checked it resolves

    // Every remaining problem at once, so a form can mark all of its fields in one round trip.
    const problems: InputProblem[] = [];
    if (!postalCodeBelongsTo(input.postalCode, input.province)) {
      problems.push({
        path: ["postalCode"],
        message: postalCodeMismatchMessage(input.postalCode, input.province),
        fr: postalCodeMismatchMessageFr(input.postalCode, input.province),
      });
    }
    const details = detailSchemasAt(now)[line].safeParse(input.details);
    if (!details.success) {
      for (const issue of details.error.issues) {
        const keys = issue.code === "unrecognized_keys" ? issue.keys.map((k) => [...issue.path, k]) : [issue.path];
        for (const path of keys) {
          problems.push(
            issue.code === "unrecognized_keys"
              ? { path: ["details", ...path], message: `is not a detail of ${LINE_LABELS[line]} quotes`, fr: `n’est pas un détail d’une soumission ${LINE_LABELS[line]}` }
              : { path: ["details", ...path], message: issue.message, fr: carriedFrench(issue) },
          );
        }
      }
    }
    if (problems.length > 0) throw invalidInput(problems);

    const catalogue = ctx.services.carriers.list();
    if (catalogue.length === 0) {
      throw new CodedError("internal_error", "The carrier catalogue is empty: run `broker-directory seed`.");
    }
    const request = { line, province: input.province, postalCode: input.postalCode, details: details.data } as RatingRequest;
    const rated = rateQuote(request, catalogue, now);
    if (!rated.ok) {
      const names = rated.eligible.map((c) => c.name);
      throw new CodedError(
        "not_enough_carriers",
        `Only ${names.length} carrier${names.length === 1 ? "" : "s"} in our catalogue write ${LINE_LABELS[line]} insurance in ` +
          `${provinceByCode(input.province).en}${names.length ? ` (${names.join(", ")})` : ""}; a comparison needs at least ${MIN_OFFERS}. ` +
          "A local broker can quote it.",
      );
    }

    const quote = {
      // A UUIDv7 (creation millisecond, then 74 random bits), in the same qt_ + 32 hex form:
      // new quotes sort after older ones, so their rows are appended to the ends of
      // the quotes table and its keys instead of landing on a random page of each (a random
      // id cost three times the log writes per commit). Quotes are read within their workspace
      // only; the time it reveals is the quote's createdAt, which its reader sees anyway.
      id: `qt_${Bun.randomUUIDv7("hex", nowMs).replaceAll("-", "")}`,
      workspaceId: ctx.principal.workspaceId,
      insuranceType: input.insuranceType,
      line,
      province: input.province,
      postalCode: input.postalCode,
      details: details.data as Record<string, unknown>,
      source: sourceOf(ctx.surface),
      createdAt: nowMs,
      expiresAt: nowMs + QUOTE_LIFETIME_MS,
      offers: rated.offers,
    };
    const view = toQuoteView(quote, nowMs);
    // Answered only once committed (the store groups the writes of one event-loop turn), with its
    // idempotency record and its quote.created event when an endpoint of the workspace wants it.
    return answerOnce(claim, view, async (record) => {
      const written = await ctx.services.quotes.insert(quote, { record, event: webhookEvent(ctx, "quote.created", view, nowMs) });
      deliverSoon(ctx, written.deliveries);
      return written.held;
    });
  }));
