-- An import writes thousands of reviews a transaction. Row by row, each new published review
-- updated its broker's aggregates (and, through brokers_changes_ratings, journalled a change and
-- trimmed the journal) and bumped the directory version: ~40 µs a review, most of a 1.2 million
-- review import. A transaction that holds the `meta` row 'bulk_load' (inserted and deleted within
-- the same transaction, so no other connection ever sees it: src/storage/stores/importBatch.ts,
-- skipRowTriggers) skips these two triggers and does their work once per batch instead: each
-- touched broker recounted from its published reviews, the version bumped once (journalChanges).
-- Every other writer is unchanged. PostgreSQL's triggers already do this (directory_bulk_load()).
DROP TRIGGER reviews_aggregate_insert;--> statement-breakpoint
CREATE TRIGGER reviews_aggregate_insert AFTER INSERT ON reviews
WHEN new.published = 1 AND NOT EXISTS (SELECT 1 FROM meta WHERE key = 'bulk_load') BEGIN
  UPDATE brokers SET review_count = review_count + 1,
    rating_1 = rating_1 + (new.rating = 1), rating_2 = rating_2 + (new.rating = 2), rating_3 = rating_3 + (new.rating = 3), rating_4 = rating_4 + (new.rating = 4), rating_5 = rating_5 + (new.rating = 5),
    -- SET expressions read the row as it was, so the average folds in this review itself.
    average_rating = round(((rating_1 + 2 * rating_2 + 3 * rating_3 + 4 * rating_4 + 5 * rating_5) + new.rating) * 1.0 / (review_count + 1), 2)
  WHERE id = new.broker_id;
END;
--> statement-breakpoint
DROP TRIGGER reviews_version_insert;--> statement-breakpoint
CREATE TRIGGER reviews_version_insert AFTER INSERT ON reviews
WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'bulk_load') BEGIN
  UPDATE meta SET value = value + 1 WHERE key = 'directory_version';
END;
