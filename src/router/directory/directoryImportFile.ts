import { z } from "zod";
import { ImportFileError } from "../../importing/rowError.ts";
import { invalidInput } from "../quotes/invalidInput.ts";
import { scopedProcedure } from "../trpc.ts";
import { actorOf, reasonInput } from "./directoryViews.ts";
import { said } from "../../schemas/frenchMessages.ts";

/**
 * A CSV or NDJSON file, as the `import` command reads one, sent in parts (issue 27 section 4: the
 * console's Import page uploads the operator's file). A request body holds 64 KiB at most, so a
 * file comes in consecutive parts of whole lines, each read by the import's own engine
 * (src/importing: csv-parse, the same columns, checks and writers); a part that may end inside a
 * record hands its last record back (`nextLine`) for the next part to start with.
 */

export const importFileInput = z.strictObject({
  kind: z.enum(["brokers", "reviews"], { error: said('must be "brokers" or "reviews"', 'doit être "brokers" ou "reviews"') }).describe("What the file holds: brokers or reviews, as `import` reads them"),
  text: z.string({ error: said("must be the file's text (or a part of it)", "doit être le texte du fichier (ou une partie)") }).min(1, { error: said("is empty: choose a file with a header row and records", "est vide : choisissez un fichier avec une ligne d’en-tête et des enregistrements") }).describe("The file's text, or a part of it: whole lines; a CSV part after the first begins with the file's header row again"),
  name: z.string().max(255).optional().describe("The file's name: a known extension (.csv, .ndjson, .jsonl, .json) must agree with the content"),
  startLine: z.number({ error: said("must be a line number", "doit être un numéro de ligne") }).int().min(1).optional().describe("The file's line where this part's records start (after a CSV part's header row); default: the part is the file's start"),
  final: z.boolean({ error: said("must be true or false", "doit être true ou false") }).optional().describe("false: more parts follow, so the part's last record (maybe cut) is held back and `nextLine` names where the next part starts; default true"),
  reason: reasonInput(1_000),
  dryRun: z.boolean({ error: said("must be true or false", "doit être true ou false") }).optional().describe("true: check and classify every record against the directory, write nothing"),
});

const rowErrorSchema = z.object({ line: z.number().int().describe("The file's line where the record starts"), field: z.string().describe('Column or field ("" for the row)'), message: z.string() });

export const importFileOutput = z.object({
  summary: z.object({ created: z.number().int(), updated: z.number().int(), unchanged: z.number().int(), failed: z.number().int() }),
  errors: z.array(rowErrorSchema).describe("Each failed record's problems and each duplicate key, in file order (the first 1,000)"),
  nextLine: z
    .number()
    .int()
    .nullable()
    .describe("The file's line where the next part must start (this part's last record was held back; when it is this part's startLine, its one record may go on: send a longer part); null: the part was taken whole"),
});
export type ImportFileResult = z.infer<typeof importFileOutput>;

export const importDirectoryFile = scopedProcedure("directory:write")
  .input(importFileInput)
  .output(importFileOutput)
  .mutation(async ({ ctx, input }) => {
    const { kind, text, name, startLine, final = true, dryRun = false } = input;
    try {
      const { summary, nextLine } = await ctx.services.directory.importPart(kind, { text, name, startLine, final }, {
        actor: actorOf(ctx.principal),
        reason: input.reason ?? `import ${kind} (${name ?? "file"})`,
        now: ctx.services.now(),
        write: !dryRun,
      });
      const { created, updated, unchanged, failed, errors } = summary;
      return { summary: { created, updated, unchanged, failed }, errors, nextLine };
    } catch (error) {
      // The file as a whole is not one we read (a PNG, unknown columns): the operator picks another.
      if (error instanceof ImportFileError) throw invalidInput([{ path: ["text"], message: error.message }]);
      throw error;
    }
  });
