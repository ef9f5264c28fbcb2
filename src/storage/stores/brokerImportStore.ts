import { and, asc, eq, gt, inArray, isNotNull, max } from "drizzle-orm";
import { foldText } from "../../domain/text.ts";
import type { BrokerRecord } from "../../schemas/directoryRecords.ts";
import { run, rows, type Db, type Executor, type Op, type Tables } from "../executor.ts";
import { appendAudit, type NewAuditEntry } from "./directoryAuditStore.ts";
import { PreparedWhereIn } from "./preparedWhereIn.ts";
import { highestId, insertRows, journalChanges, lockDirectory, skipRowTriggers, rowsWhereIn, runImportOp, type ImportItem, type ImportWrite, type RowOutcome } from "./importBatch.ts";
import {
  brokerChanges,
  brokerFieldsOf,
  createdFields,
  newBrokerRow,
  officeFieldsOf,
  officeRow,
  storedOfficeFields,
  type OfficeFields,
  type StoredBroker,
  type StoredOffice,
} from "./importedBroker.ts";

/** Brokers read per page when `--sync` looks for those the file no longer lists. */
const SYNC_PAGE = 1_000;

/** The key a broker is imported by, as the report shows it. */
export const brokerKeyOf = (record: BrokerRecord) => (record.externalId !== null ? record.externalId : record.slug);

const lineRows = (brokerId: number, lines: readonly string[]) => lines.map((line) => ({ brokerId, lineKey: foldText(line) }));

/**
 * Writes imported brokers (issue 27), written once for both dialects: a batch of records is one
 * transaction (a broker is never stored without its offices and lines, and a kill leaves the
 * directory at a batch boundary). Brokers are found by the operator's `externalId`, else by slug;
 * one with neither matching is created. A broker whose stored fields and offices equal the
 * record's is left alone: no statement touches it, so no trigger fires and no version moves.
 * Each change is appended to the audit trail in the same transaction.
 */
export class BrokerImportStore {
  constructor(private readonly x: Executor) {}

  /** Stores (or, with `write` false, only classifies) one batch; an outcome per item, in order. */
  batch(items: readonly ImportItem<BrokerRecord>[], how: ImportWrite): Promise<RowOutcome[]> {
    const { x } = this;
    return runImportOp(x, how.write, (db, t) => writeBrokerBatch(x, db, t, items, how));
  }

  /**
   * `--sync`: unpublishes the published brokers that carry an externalId the file did not list
   * (`listed`), never deleting one (their reviews and history stay); brokers without an
   * externalId are left alone. Pages of SYNC_PAGE brokers, each page's changes one transaction.
   */
  async unpublishUnlisted(listed: (externalId: string) => boolean, how: ImportWrite): Promise<{ id: number; externalId: string }[]> {
    const unpublished: { id: number; externalId: string }[] = [];
    let after = 0;
    for (;;) {
      const page = await this.x.rows((db, { brokers }) =>
        db
          .select({ id: brokers.id, externalId: brokers.externalId })
          .from(brokers)
          .where(and(gt(brokers.id, after), isNotNull(brokers.externalId), eq(brokers.published, true)))
          .orderBy(asc(brokers.id))
          .limit(SYNC_PAGE),
      );
      if (page.length === 0) return unpublished;
      after = page.at(-1)!.id;
      const missing = page.filter((broker) => !listed(broker.externalId!)).map((broker) => ({ id: broker.id, externalId: broker.externalId! }));
      if (missing.length === 0) continue;
      if (how.write) {
        const { x } = this;
        const ids = missing.map((broker) => broker.id);
        await x.write(function* (db, t) {
          yield* lockDirectory(x, db, t);
          yield* skipRowTriggers(x, db, t);
          // Only those still published: a broker republished meanwhile is not on record as unpublished here.
          const changed = yield* rows(
            db.update(t.brokers).set({ published: false, updatedAt: how.now }).where(and(inArray(t.brokers.id, ids), eq(t.brokers.published, true))).returning({ id: t.brokers.id }),
          );
          const entries: NewAuditEntry[] = changed.map(({ id }) => ({
            brokerId: id, reviewId: null, actor: how.actor, at: how.now, action: "unpublished", before: { published: true }, after: { published: false }, reason: `${how.reason} (--sync: not in the file)`,
          }));
          yield* appendAudit(x, db, t, entries);
          yield* journalChanges(x, db, t, ids, false);
        });
      }
      unpublished.push(...missing);
    }
  }
}

/** One batch inside the caller's transaction (the write API's create runs it with its idempotency claim). */
export function* writeBrokerBatch(x: Executor, db: Db, t: Tables, items: readonly ImportItem<BrokerRecord>[], how: ImportWrite): Op<RowOutcome[]> {
  if (how.write) {
    yield* lockDirectory(x, db, t);
    yield* skipRowTriggers(x, db, t);
  }
  const { brokers, brokerLocations, brokerLines } = t;
  const { byExternalId, bySlug, byId, officesOf } = yield* storedBrokersOf(x, db, t, items);

  let nextBrokerId = 0;
  let nextOfficeId = 0;
  if (how.write) {
    nextBrokerId = (yield* highestId(db.select({ n: max(brokers.id) }).from(brokers))) + 1;
    nextOfficeId = (yield* highestId(db.select({ n: max(brokerLocations.id) }).from(brokerLocations))) + 1;
  }
  const newBrokers: Record<string, unknown>[] = [];
  const newOffices: Record<string, unknown>[] = [];
  const newLines: Record<string, unknown>[] = [];
  const audit: NewAuditEntry[] = [];
  /** Slugs this batch gives, and to which key: two records of one batch may not take the same one. */
  const claimed = new Map<string, string>();
  const outcomes: RowOutcome[] = [];

  for (const { line, record, target } of items) {
    const key = brokerKeyOf(record);
    let stored = record.externalId !== null ? byExternalId.get(record.externalId) : bySlug.get(record.slug);
    // A broker made without an externalId (the demo data, an earlier file keyed by slug) is
    // taken over by the first record with an externalId that names its slug.
    if (!stored && record.externalId !== null) {
      const holder = bySlug.get(record.slug);
      if (holder && holder.externalId === null) stored = holder;
    }
    if (target !== undefined) {
      // The write API names the broker: an externalId held by another one is refused, never taken over.
      const named = target === "new" ? undefined : byId.get(target);
      if (target !== "new" && !named) {
        outcomes.push({ line, key, outcome: "failed", errors: [{ line, field: "id", message: `no broker has the id ${target}` }] });
        continue;
      }
      const other = record.externalId !== null ? byExternalId.get(record.externalId) : undefined;
      if (other && other.id !== named?.id) {
        outcomes.push({ line, key, outcome: "failed", errors: [{ line, field: "externalId", message: `"${record.externalId}" is already the externalId of broker ${other.id}: give this broker another one` }] });
        continue;
      }
      stored = named;
    }
    // A slug made from the name and city never moves an existing broker's address.
    const slug = stored && record.slugGenerated ? stored.slug : record.slug;
    const holder = bySlug.get(slug);
    const claimedBy = claimed.get(slug);
    if ((holder && holder.id !== stored?.id) || (claimedBy !== undefined && claimedBy !== key)) {
      const other = holder && holder.id !== stored?.id ? (holder.externalId !== null ? `the broker with externalId "${holder.externalId}"` : `broker ${holder.id}`) : "another broker of this file";
      outcomes.push({ line, key, outcome: "failed", errors: [{ line, field: "slug", message: `"${slug}" is already the slug of ${other}: give this broker another slug` }] });
      continue;
    }
    claimed.set(slug, key);
    const fields = brokerFieldsOf(record, slug);
    // A file keyed by slug never takes away an externalId the broker has.
    if (fields.externalId === null && stored) fields.externalId = stored.externalId;
    const offices = record.locations.map(officeFieldsOf);
    if (how.officePhones === false && stored) keepOfficePhones(offices, officesOf.get(stored.id) ?? []);

    if (!stored) {
      const id = how.write ? nextBrokerId++ : 0;
      newBrokers.push(newBrokerRow(id, fields, how.now));
      for (const office of offices) newOffices.push(officeRow(nextOfficeId++, id, office));
      newLines.push(...lineRows(id, fields.insuranceLines));
      audit.push({ brokerId: id, reviewId: null, actor: how.actor, at: how.now, action: "created", before: null, after: createdFields(fields, offices), reason: how.reason });
      outcomes.push({ line, key, outcome: "created", id });
      continue;
    }
    const { before, after, officesChanged } = brokerChanges(stored, officesOf.get(stored.id) ?? [], fields, offices);
    if (Object.keys(after).length === 0) {
      outcomes.push({ line, key, outcome: "unchanged", id: stored.id });
      continue;
    }
    outcomes.push({ line, key, outcome: "updated", id: stored.id });
    audit.push({ brokerId: stored.id, reviewId: null, actor: how.actor, at: how.now, action: "updated", before, after, reason: how.reason });
    if (!how.write) continue;
    const set: Record<string, unknown> = { ...after, updatedAt: how.now };
    delete set.locations;
    if ("name" in after) set.sortName = foldText(fields.name);
    yield* run(db.update(brokers).set(set).where(eq(brokers.id, stored.id)));
    if (officesChanged) {
      yield* run(db.delete(brokerLocations).where(eq(brokerLocations.brokerId, stored.id)));
      for (const office of offices) newOffices.push(officeRow(nextOfficeId++, stored.id, office));
    }
    if ("insuranceLines" in after) {
      yield* run(db.delete(brokerLines).where(eq(brokerLines.brokerId, stored.id)));
      newLines.push(...lineRows(stored.id, fields.insuranceLines));
    }
  }
  if (how.write) {
    // Parents first: offices and lines reference their broker.
    yield* insertRows(x, db, brokers, newBrokers);
    yield* insertRows(x, db, brokerLocations, newOffices);
    yield* insertRows(x, db, brokerLines, newLines);
    yield* appendAudit(x, db, t, audit);
    yield* journalChanges(x, db, t, audit.map((entry) => entry.brokerId), false);
  }
  return outcomes;
}

/** The lookups every batch makes by the file's keys, prepared once an executor (PreparedWhereIn). */
interface Lookups {
  byExternalId: PreparedWhereIn<StoredBroker>;
  bySlug: PreparedWhereIn<StoredBroker>;
  offices: PreparedWhereIn<StoredOffice>;
}
const lookups = new WeakMap<Executor, Lookups>();

function lookupsOf(x: Executor): Lookups {
  let found = lookups.get(x);
  if (!found) {
    found = {
      byExternalId: new PreparedWhereIn(x, (db, { brokers }, keys) => db.select().from(brokers).where(inArray(brokers.externalId, keys))),
      bySlug: new PreparedWhereIn(x, (db, { brokers }, keys) => db.select().from(brokers).where(inArray(brokers.slug, keys))),
      offices: new PreparedWhereIn(x, (db, { brokerLocations }, keys) =>
        db.select().from(brokerLocations).where(inArray(brokerLocations.brokerId, keys)).orderBy(asc(brokerLocations.brokerId), asc(brokerLocations.id)),
      ),
    };
    lookups.set(x, found);
  }
  return found;
}

/** The stored brokers a batch's records may name (by externalId or slug), and their offices in order. */
function* storedBrokersOf(x: Executor, db: Db, { brokers }: Tables, items: readonly ImportItem<BrokerRecord>[]) {
  const prepared = lookupsOf(x);
  const externalIds = items.flatMap(({ record }) => (record.externalId !== null ? [record.externalId] : []));
  const byExternalId = new Map<string, StoredBroker>();
  for (const broker of yield* prepared.byExternalId.rows(db, externalIds)) byExternalId.set(broker.externalId!, broker);
  const bySlug = new Map<string, StoredBroker>();
  for (const broker of yield* prepared.bySlug.rows(db, items.map(({ record }) => record.slug))) bySlug.set(broker.slug, broker);
  const byId = new Map<number, StoredBroker>();
  const targets = items.flatMap(({ target }) => (typeof target === "number" ? [target] : []));
  for (const broker of yield* rowsWhereIn<StoredBroker>(targets, (chunk) => db.select().from(brokers).where(inArray(brokers.id, chunk as number[])))) {
    byId.set(broker.id, broker);
  }
  const storedIds = [...new Set([...byExternalId.values(), ...bySlug.values(), ...byId.values()].map((broker) => broker.id))];
  const officesOf = new Map<number, OfficeFields[]>();
  // Across lists of 500 brokers the rows come list by list, each in order: grouped by broker, each broker's in id order.
  for (const office of yield* prepared.offices.rows(db, storedIds)) officesOf.set(office.brokerId, [...(officesOf.get(office.brokerId) ?? []), storedOfficeFields(office)]);
  return { byExternalId, bySlug, byId, officesOf };
}

/** Offices given without a phone by a file that cannot give one take the phone stored for the same office. */
function keepOfficePhones(offices: OfficeFields[], stored: readonly OfficeFields[]): void {
  for (const office of offices) {
    if (office.phone !== null) continue;
    const same = stored.find((old) => old.address === office.address && old.postalCode === office.postalCode);
    if (same) office.phone = same.phone;
  }
}
