import journal from "./migrations-pg/meta/_journal.json" with { type: "json" };
import tables from "./migrations-pg/0000_tables.sql" with { type: "text" };
import triggersAndAnnouncements from "./migrations-pg/0001_triggers_and_announcements.sql" with { type: "text" };
import offersInQuotes from "./migrations-pg/0002_offers_in_quotes.sql" with { type: "text" };
import keyRolls from "./migrations-pg/0003_key_rolls.sql" with { type: "text" };
import idempotencyRecords from "./migrations-pg/0004_idempotency_records.sql" with { type: "text" };
import importKeysAndAudit from "./migrations-pg/0005_import_keys_and_audit.sql" with { type: "text" };
import auditAppendOnly from "./migrations-pg/0006_audit_append_only.sql" with { type: "text" };
import webhooks from "./migrations-pg/0007_webhooks.sql" with { type: "text" };
import reviewsCreatedIndex from "./migrations-pg/0008_reviews_created_index.sql" with { type: "text" };
import webhookEventEndpoints from "./migrations-pg/0009_webhook_event_endpoints.sql" with { type: "text" };

/**
 * The PostgreSQL migrations (drizzle-kit's output for db/schema.pg.ts, plus hand-written ones
 * made with `--custom`), embedded as text like db/migrations.ts. Add a new file here after
 * `bun run db:generate:pg`; a unit test checks this list against drizzle-kit's journal.
 */
export const PG_MIGRATIONS: readonly { tag: string; sql: string }[] = [
  { tag: "0000_tables", sql: tables },
  { tag: "0001_triggers_and_announcements", sql: triggersAndAnnouncements },
  { tag: "0002_offers_in_quotes", sql: offersInQuotes },
  { tag: "0003_key_rolls", sql: keyRolls },
  { tag: "0004_idempotency_records", sql: idempotencyRecords },
  { tag: "0005_import_keys_and_audit", sql: importKeysAndAudit },
  { tag: "0006_audit_append_only", sql: auditAppendOnly },
  { tag: "0007_webhooks", sql: webhooks },
  { tag: "0008_reviews_created_index", sql: reviewsCreatedIndex },
  { tag: "0009_webhook_event_endpoints", sql: webhookEventEndpoints },
];

export const PG_JOURNAL_TAGS: readonly string[] = journal.entries.map((e) => e.tag);
