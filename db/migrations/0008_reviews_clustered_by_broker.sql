-- Reviews clustered by broker (see db/schema.ts): the table is rebuilt WITHOUT ROWID, keyed by
-- (broker_id, published, created_at, id), every row and id kept. drizzle-kit wrote the rebuild;
-- by hand: WITHOUT ROWID (drizzle cannot declare it), the copy in key order (the new tree is
-- written by appending), and the triggers, which DROP TABLE took with it (0003's aggregate
-- triggers and 0001's version triggers, unchanged). The PRAGMAs drizzle adds are no-ops here:
-- each migration runs in a transaction. Neither the DROP nor the copy fires a trigger, so the
-- rating aggregates on brokers are untouched; the directory version is bumped once at the end.
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_reviews` (
	`id` integer NOT NULL,
	`broker_id` integer NOT NULL,
	`author_name` text NOT NULL,
	`rating` integer NOT NULL,
	`title` text NOT NULL,
	`body` text NOT NULL,
	`published` integer NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`broker_id`, `published`, `created_at`, `id`),
	FOREIGN KEY (`broker_id`) REFERENCES `brokers`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "reviews_rating_range" CHECK("__new_reviews"."rating" between 1 and 5)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_reviews`("id", "broker_id", "author_name", "rating", "title", "body", "published", "created_at") SELECT "id", "broker_id", "author_name", "rating", "title", "body", "published", "created_at" FROM `reviews` ORDER BY "broker_id", "published", "created_at", "id";--> statement-breakpoint
DROP TABLE `reviews`;--> statement-breakpoint
ALTER TABLE `__new_reviews` RENAME TO `reviews`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `reviews_id` ON `reviews` (`id`);--> statement-breakpoint
CREATE INDEX `reviews_broker_rating` ON `reviews` (`broker_id`,`published`,`rating`,`created_at`);--> statement-breakpoint
CREATE TRIGGER reviews_aggregate_insert AFTER INSERT ON reviews WHEN new.published = 1 BEGIN
  UPDATE brokers SET review_count = review_count + 1,
    rating_1 = rating_1 + (new.rating = 1), rating_2 = rating_2 + (new.rating = 2), rating_3 = rating_3 + (new.rating = 3), rating_4 = rating_4 + (new.rating = 4), rating_5 = rating_5 + (new.rating = 5),
    -- SET expressions read the row as it was, so the average folds in this review itself.
    average_rating = round(((rating_1 + 2 * rating_2 + 3 * rating_3 + 4 * rating_4 + 5 * rating_5) + new.rating) * 1.0 / (review_count + 1), 2)
  WHERE id = new.broker_id;
END;
--> statement-breakpoint
CREATE TRIGGER reviews_aggregate_delete AFTER DELETE ON reviews WHEN old.published = 1 BEGIN
  UPDATE brokers SET review_count = review_count - 1,
    rating_1 = rating_1 - (old.rating = 1), rating_2 = rating_2 - (old.rating = 2), rating_3 = rating_3 - (old.rating = 3), rating_4 = rating_4 - (old.rating = 4), rating_5 = rating_5 - (old.rating = 5),
    -- SET expressions read the row as it was, so the average folds in this review itself.
    average_rating = CASE WHEN review_count - 1 = 0 THEN NULL ELSE round(((rating_1 + 2 * rating_2 + 3 * rating_3 + 4 * rating_4 + 5 * rating_5) - old.rating) * 1.0 / (review_count - 1), 2) END
  WHERE id = old.broker_id;
END;
--> statement-breakpoint
CREATE TRIGGER reviews_aggregate_update_old AFTER UPDATE OF published, rating, broker_id ON reviews WHEN old.published = 1 BEGIN
  UPDATE brokers SET review_count = review_count - 1,
    rating_1 = rating_1 - (old.rating = 1), rating_2 = rating_2 - (old.rating = 2), rating_3 = rating_3 - (old.rating = 3), rating_4 = rating_4 - (old.rating = 4), rating_5 = rating_5 - (old.rating = 5),
    -- SET expressions read the row as it was, so the average folds in this review itself.
    average_rating = CASE WHEN review_count - 1 = 0 THEN NULL ELSE round(((rating_1 + 2 * rating_2 + 3 * rating_3 + 4 * rating_4 + 5 * rating_5) - old.rating) * 1.0 / (review_count - 1), 2) END
  WHERE id = old.broker_id;
END;
--> statement-breakpoint
CREATE TRIGGER reviews_aggregate_update_new AFTER UPDATE OF published, rating, broker_id ON reviews WHEN new.published = 1 BEGIN
  UPDATE brokers SET review_count = review_count + 1,
    rating_1 = rating_1 + (new.rating = 1), rating_2 = rating_2 + (new.rating = 2), rating_3 = rating_3 + (new.rating = 3), rating_4 = rating_4 + (new.rating = 4), rating_5 = rating_5 + (new.rating = 5),
    -- SET expressions read the row as it was, so the average folds in this review itself.
    average_rating = round(((rating_1 + 2 * rating_2 + 3 * rating_3 + 4 * rating_4 + 5 * rating_5) + new.rating) * 1.0 / (review_count + 1), 2)
  WHERE id = new.broker_id;
END;
--> statement-breakpoint
CREATE TRIGGER reviews_version_insert AFTER INSERT ON reviews BEGIN
  UPDATE meta SET value = value + 1 WHERE key = 'directory_version';
END;
--> statement-breakpoint
CREATE TRIGGER reviews_version_update AFTER UPDATE ON reviews BEGIN
  UPDATE meta SET value = value + 1 WHERE key = 'directory_version';
END;
--> statement-breakpoint
CREATE TRIGGER reviews_version_delete AFTER DELETE ON reviews BEGIN
  UPDATE meta SET value = value + 1 WHERE key = 'directory_version';
END;
--> statement-breakpoint
UPDATE meta SET value = value + 1 WHERE key = 'directory_version';
