import { z } from "zod";
import type { Context } from "../trpc.ts";
import { BROKER_RECORD_SHAPE, brokerRecordOf, brokerRecordSchema, strictRecordObject, type BrokerRecord } from "../../schemas/directoryRecords.ts";
import { pageInput, paginate, pagedSchema } from "../../schemas/pagination.ts";
import { freeText, lineText } from "../../schemas/recordFields.ts";
import type { BrokerWithOffices } from "../../storage/stores/directoryWriteStore.ts";
import { carriedFrench, invalidInput } from "../quotes/invalidInput.ts";
import { createOnce } from "../idempotency.ts";
import { scopedProcedure } from "../trpc.ts";
import { answerFromHeld } from "./answeredOnce.ts";
import { actorOf, brokerIdInput, brokerOrThrow, BROKER_STATES, directoryBrokerSchema, reasonInput, toDirectoryBroker } from "./directoryViews.ts";
import { said } from "../../schemas/frenchMessages.ts";

/**
 * Brokers through the write API (issue 27 section 2, scope directory:write): created and
 * changed as the import writes a record (the same schema, the same writer), published and
 * unpublished with a reason, read in any state. Every change is on the broker's history.
 */

const MAX_REASON = 1_000;

/** The fields PATCH takes: every field of a record but `published` (publish and unpublish say why). */
const PATCH_FIELDS = Object.keys(BROKER_RECORD_SHAPE).filter((name) => name !== "published");

export const createDirectoryBrokerInput = strictRecordObject("a broker", "un courtier", { ...BROKER_RECORD_SHAPE, reason: reasonInput(MAX_REASON) }).transform((input, ctx) => {
  const { reason, ...broker } = input;
  return { reason, record: brokerRecordOf(broker, ctx) };
});

export const updateDirectoryBrokerInput = z.strictObject(
  {
    id: brokerIdInput,
    reason: reasonInput(MAX_REASON),
    ...Object.fromEntries(PATCH_FIELDS.map((name) => [name, z.unknown().optional().describe(`As in POST /api/v1/directory/brokers; null clears an optional field; absent: unchanged`)])),
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? `${issue.keys.join(", ")}: not ${issue.keys.length === 1 ? "a field" : "fields"} a PATCH changes (publish and unpublish have routes of their own); the fields are ${PATCH_FIELDS.join(", ")}` : "must be a JSON object of the fields to change") },
);

const listInput = z.object({
  ...pageInput,
  state: z.enum(BROKER_STATES, { error: said(`must be one of ${BROKER_STATES.join(", ")}`, `doit être l’une des valeurs ${BROKER_STATES.join(", ")}`) }).optional().describe("Only brokers in this state (default: every state)"),
  q: freeText(200).optional().describe("Text in the broker's name or slug (case and accents ignored)"),
  externalId: lineText(200).optional().describe("Only the broker with this externalId"),
});

/** The stored broker as a record's raw fields (the file's names), for a PATCH to change some of. */
function recordFieldsOf({ broker: b, offices }: BrokerWithOffices): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    externalId: b.externalId, name: b.name, slug: b.slug, email: b.email, phone: b.phone, website: b.website, description: b.description,
    foundingYear: b.foundingYear, teamSize: b.teamSize, isVerified: b.isVerified, published: b.published, licenseNumber: b.licenseNumber,
    insuranceLines: b.insuranceLines, specialties: b.specialties, languages: b.languages,
    locations: offices.map((o) => withoutNulls({ address: o.address, city: o.city, province: o.province, postalCode: o.postalCode, isPrimary: o.isPrimary, latitude: o.latitude, longitude: o.longitude, phone: o.phone })),
  };
  return withoutNulls(fields);
}

/** A record leaves an optional field out rather than null: a null given or stored means absent. */
const withoutNulls = (fields: Record<string, unknown>) => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null && value !== undefined));

/** Writes the record; a refusal of the writer (a slug or externalId another broker holds) is a 422 naming the field. */
async function save(ctx: Context & { principal: NonNullable<Context["principal"]> }, record: BrokerRecord, target: number, reason: string | undefined) {
  const { directory } = ctx.services;
  const outcome = await directory.saveBroker(record, target, { actor: actorOf(ctx.principal), reason: reason ?? "", now: ctx.services.now() });
  if (outcome.outcome === "failed") throw invalidInput(outcome.errors.map((e) => ({ path: [e.field], message: e.message })));
  return toDirectoryBroker((await directory.findBroker(outcome.id))!);
}

export const listDirectoryBrokers = scopedProcedure("directory:write")
  .input(listInput)
  .output(pagedSchema(directoryBrokerSchema, "Brokers in every state, by id"))
  .query(async ({ ctx, input }) => {
    const { items, total } = await ctx.services.directory.listBrokers(input);
    return { data: items.map(toDirectoryBroker), pagination: paginate(input.page, input.limit, total) };
  });

export const getDirectoryBroker = scopedProcedure("directory:write")
  .input(z.object({ id: brokerIdInput }))
  .output(directoryBrokerSchema)
  .query(async ({ ctx, input }) => toDirectoryBroker(await brokerOrThrow(ctx.services.directory, input.id)));

/**
 * A new broker, validated and written as the import writes a record (published unless
 * `published: false`). With an Idempotency-Key (issue 28 §2) a retry replays the first answer and
 * creates nothing more: the key is claimed in the broker's own transaction, with the answer made
 * from the broker as written (its id is numbered in that write).
 */
export const createDirectoryBroker = scopedProcedure("directory:write")
  .meta({ idempotent: true })
  .input(createDirectoryBrokerInput)
  .output(directoryBrokerSchema)
  .mutation(({ ctx, input, path }) => createOnce(ctx, path, input, async (claim) => {
    const how = { actor: actorOf(ctx.principal), reason: input.reason ?? "", now: ctx.services.now() };
    const made = await ctx.services.directory.createBroker(input.record, how, claim && ((created) => claim.recordOf(toDirectoryBroker(created))));
    if ("held" in made) return answerFromHeld(claim, made.held, directoryBrokerSchema);
    const { outcome, created } = made.written;
    if (outcome.outcome === "failed") throw invalidInput(outcome.errors.map((e) => ({ path: [e.field], message: e.message })));
    return toDirectoryBroker(created!);
  }));

/** Changes the fields given; the whole broker is then validated as a record, as the import would. */
export const updateDirectoryBroker = scopedProcedure("directory:write")
  .input(updateDirectoryBrokerInput)
  .output(directoryBrokerSchema)
  .mutation(async ({ ctx, input }) => {
    const { id, reason, ...changes } = input as { id: string; reason?: string } & Record<string, unknown>;
    const stored = await brokerOrThrow(ctx.services.directory, id);
    const merged = withoutNulls({ ...recordFieldsOf(stored), ...changes });
    const parsed = brokerRecordSchema.safeParse(merged);
    if (!parsed.success) throw invalidInput(parsed.error.issues.map((issue) => ({ path: issue.path, message: issue.message, fr: carriedFrench(issue) })));
    return save(ctx, parsed.data, stored.broker.id, reason);
  });

const publishing = (published: boolean) =>
  scopedProcedure("directory:write")
    .input(
      z.strictObject({
        id: brokerIdInput,
        reason: published
          ? reasonInput(MAX_REASON)
          : freeText(MAX_REASON).min(1, { error: said("is required: why the broker leaves the directory", "est obligatoire : pourquoi le courtier quitte le répertoire") }).describe("Why the broker leaves the public directory (kept on its history)"),
      }),
    )
    .output(directoryBrokerSchema)
    .mutation(async ({ ctx, input }) => {
      const { directory } = ctx.services;
      const stored = await brokerOrThrow(directory, input.id);
      await directory.setPublished(stored.broker.id, published, { actor: actorOf(ctx.principal), reason: input.reason ?? "", now: ctx.services.now() });
      return toDirectoryBroker((await directory.findBroker(stored.broker.id))!);
    });

/** Puts a broker on every public surface (twice is fine: nothing changes, nothing is on record). */
export const publishDirectoryBroker = publishing(true);
/** Takes a broker off every public surface; its reviews and history stay. */
export const unpublishDirectoryBroker = publishing(false);
