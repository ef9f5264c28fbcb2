import journal from "./migrations/meta/_journal.json" with { type: "json" };
import directory from "./migrations/0000_directory.sql" with { type: "text" };
import searchAndAggregates from "./migrations/0001_search_and_aggregates.sql" with { type: "text" };
import quotesLeadsCarriers from "./migrations/0002_quotes_leads_carriers.sql" with { type: "text" };
import leanerReviewTriggers from "./migrations/0003_leaner_review_triggers.sql" with { type: "text" };
import brokerProfileFields from "./migrations/0004_broker_profile_fields.sql" with { type: "text" };
import workspaceConsole from "./migrations/0005_workspace_console.sql" with { type: "text" };
import quotesExpiryIndex from "./migrations/0006_quotes_expiry_index.sql" with { type: "text" };
import keysVersion from "./migrations/0007_keys_version.sql" with { type: "text" };
import reviewsClusteredByBroker from "./migrations/0008_reviews_clustered_by_broker.sql" with { type: "text" };
import directoryChanges from "./migrations/0009_directory_changes.sql" with { type: "text" };
import versionOnVerifiedAndTeamSize from "./migrations/0010_version_on_verified_and_team_size.sql" with { type: "text" };
import offersInQuotes from "./migrations/0011_offers_in_quotes.sql" with { type: "text" };
import keyRolls from "./migrations/0012_key_rolls.sql" with { type: "text" };
import idempotencyRecords from "./migrations/0013_idempotency_records.sql" with { type: "text" };
import importKeysAndAudit from "./migrations/0014_import_keys_and_audit.sql" with { type: "text" };
import auditAppendOnly from "./migrations/0015_audit_append_only.sql" with { type: "text" };
import webhooks from "./migrations/0016_webhooks.sql" with { type: "text" };
import reviewsCreatedIndex from "./migrations/0017_reviews_created_index.sql" with { type: "text" };
import importSkipsReviewRowTriggers from "./migrations/0018_import_skips_review_row_triggers.sql" with { type: "text" };
import webhookFanout from "./migrations/0019_webhook_fanout.sql" with { type: "text" };
import detailColumnsRebuildIndex from "./migrations/0020_detail_columns_rebuild_index.sql" with { type: "text" };

/**
 * The migrations drizzle-kit generated, embedded as text so the compiled binary carries them.
 * Add the new file here after `bun run db:generate`; a unit test checks this list against
 * drizzle-kit's journal so a forgotten one fails the build.
 */
export const MIGRATIONS: readonly { tag: string; sql: string }[] = [
  { tag: "0000_directory", sql: directory },
  { tag: "0001_search_and_aggregates", sql: searchAndAggregates },
  { tag: "0002_quotes_leads_carriers", sql: quotesLeadsCarriers },
  { tag: "0003_leaner_review_triggers", sql: leanerReviewTriggers },
  { tag: "0004_broker_profile_fields", sql: brokerProfileFields },
  { tag: "0005_workspace_console", sql: workspaceConsole },
  { tag: "0006_quotes_expiry_index", sql: quotesExpiryIndex },
  { tag: "0007_keys_version", sql: keysVersion },
  { tag: "0008_reviews_clustered_by_broker", sql: reviewsClusteredByBroker },
  { tag: "0009_directory_changes", sql: directoryChanges },
  { tag: "0010_version_on_verified_and_team_size", sql: versionOnVerifiedAndTeamSize },
  { tag: "0011_offers_in_quotes", sql: offersInQuotes },
  { tag: "0012_key_rolls", sql: keyRolls },
  { tag: "0013_idempotency_records", sql: idempotencyRecords },
  { tag: "0014_import_keys_and_audit", sql: importKeysAndAudit },
  { tag: "0015_audit_append_only", sql: auditAppendOnly },
  { tag: "0016_webhooks", sql: webhooks },
  { tag: "0017_reviews_created_index", sql: reviewsCreatedIndex },
  { tag: "0018_import_skips_review_row_triggers", sql: importSkipsReviewRowTriggers },
  { tag: "0019_webhook_fanout", sql: webhookFanout },
  { tag: "0020_detail_columns_rebuild_index", sql: detailColumnsRebuildIndex },
];

export const JOURNAL_TAGS: readonly string[] = journal.entries.map((e) => e.tag);
