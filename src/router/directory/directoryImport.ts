import { z } from "zod";
import { scopedProcedure } from "../trpc.ts";
import { actorOf, reasonInput } from "./directoryViews.ts";
import { said } from "../../schemas/frenchMessages.ts";

/** Records one request may carry: a bigger directory is the CLI's (`import`, streamed in batches). */
export const MAX_IMPORT_RECORDS = 1_000;

export const importDirectoryInput = z.strictObject({
  kind: z.enum(["brokers", "reviews"], { error: said('must be "brokers" or "reviews"', 'doit être "brokers" ou "reviews"') }).describe("What the records are: broker records or review records, as `import` reads them"),
  records: z
    .array(z.unknown(), { error: said("must be a list of records", "doit être une liste d’enregistrements") })
    .min(1, { error: said("must hold at least one record", "doit contenir au moins un enregistrement") })
    .max(MAX_IMPORT_RECORDS, { error: said(`must hold at most ${MAX_IMPORT_RECORDS.toLocaleString("en-CA")} records: import more with the CLI`, `doit contenir au plus ${MAX_IMPORT_RECORDS.toLocaleString("fr-CA")} enregistrements : importez-en davantage avec la CLI`) })
    .describe("The records, each as a line of an NDJSON import file (src/importing/README.md)"),
  reason: reasonInput(1_000),
  dryRun: z.boolean({ error: said("must be true or false", "doit être true ou false") }).optional().describe("true: check and classify every record against the directory, write nothing"),
});

const rowSchema = z.object({
  line: z.number().int().optional().describe("The record's position in `records`, from 1"),
  key: z.string().optional().describe("The record's externalId (or slug)"),
  outcome: z.enum(["created", "updated", "unchanged", "failed"]),
  id: z.number().int().optional().describe("The broker's or review's id"),
  errors: z.array(z.object({ line: z.number().int(), field: z.string(), message: z.string() })).optional(),
});

/** The bulk import (issue 27): records in a request, read, checked and written as `import` writes a file. */
export const importDirectory = scopedProcedure("directory:write")
  .input(importDirectoryInput)
  .output(
    z.object({
      summary: z.object({ created: z.number().int(), updated: z.number().int(), unchanged: z.number().int(), failed: z.number().int() }),
      rows: z.array(rowSchema).describe("What became of each record, in order"),
    }),
  )
  .mutation(async ({ ctx, input }) => {
    const { summary, rows } = await ctx.services.directory.importRecords(input.kind, input.records, {
      actor: actorOf(ctx.principal),
      reason: input.reason ?? `import ${input.kind} (API)`,
      now: ctx.services.now(),
      write: input.dryRun !== true,
    });
    const { created, updated, unchanged, failed } = summary;
    return { summary: { created, updated, unchanged, failed }, rows: rows.flatMap((row) => (row.outcome === "unpublished" ? [] : [row])) };
  });

