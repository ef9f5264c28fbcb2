-- Full-text search over broker names and descriptions. SQLite-specific: the search module
-- (src/storage/fullTextSearch.ts) is the only code that queries it.
CREATE VIRTUAL TABLE brokers_fts USING fts5(
  name, description,
  content='brokers', content_rowid='id',
  tokenize='unicode61 remove_diacritics 2',
  prefix='2 3'
);
--> statement-breakpoint
CREATE TRIGGER brokers_fts_insert AFTER INSERT ON brokers BEGIN
  INSERT INTO brokers_fts(rowid, name, description) VALUES (new.id, new.name, new.description);
END;
--> statement-breakpoint
CREATE TRIGGER brokers_fts_delete AFTER DELETE ON brokers BEGIN
  INSERT INTO brokers_fts(brokers_fts, rowid, name, description) VALUES ('delete', old.id, old.name, old.description);
END;
--> statement-breakpoint
CREATE TRIGGER brokers_fts_update AFTER UPDATE OF name, description ON brokers BEGIN
  INSERT INTO brokers_fts(brokers_fts, rowid, name, description) VALUES ('delete', old.id, old.name, old.description);
  INSERT INTO brokers_fts(rowid, name, description) VALUES (new.id, new.name, new.description);
END;
--> statement-breakpoint
-- Rating aggregates on brokers follow the published reviews, whoever writes them.
CREATE TRIGGER reviews_aggregate_insert AFTER INSERT ON reviews WHEN new.published = 1 BEGIN
  UPDATE brokers SET review_count = review_count + 1, rating_1 = rating_1 + (new.rating = 1), rating_2 = rating_2 + (new.rating = 2), rating_3 = rating_3 + (new.rating = 3), rating_4 = rating_4 + (new.rating = 4), rating_5 = rating_5 + (new.rating = 5) WHERE id = new.broker_id;
  UPDATE brokers SET average_rating = CASE WHEN review_count = 0 THEN NULL
    ELSE round((rating_1 + 2 * rating_2 + 3 * rating_3 + 4 * rating_4 + 5 * rating_5) * 1.0 / review_count, 2) END
  WHERE id = new.broker_id;
END;
--> statement-breakpoint
CREATE TRIGGER reviews_aggregate_delete AFTER DELETE ON reviews WHEN old.published = 1 BEGIN
  UPDATE brokers SET review_count = review_count - 1, rating_1 = rating_1 - (old.rating = 1), rating_2 = rating_2 - (old.rating = 2), rating_3 = rating_3 - (old.rating = 3), rating_4 = rating_4 - (old.rating = 4), rating_5 = rating_5 - (old.rating = 5) WHERE id = old.broker_id;
  UPDATE brokers SET average_rating = CASE WHEN review_count = 0 THEN NULL
    ELSE round((rating_1 + 2 * rating_2 + 3 * rating_3 + 4 * rating_4 + 5 * rating_5) * 1.0 / review_count, 2) END
  WHERE id = old.broker_id;
END;
--> statement-breakpoint
CREATE TRIGGER reviews_aggregate_update_old AFTER UPDATE OF published, rating, broker_id ON reviews WHEN old.published = 1 BEGIN
  UPDATE brokers SET review_count = review_count - 1, rating_1 = rating_1 - (old.rating = 1), rating_2 = rating_2 - (old.rating = 2), rating_3 = rating_3 - (old.rating = 3), rating_4 = rating_4 - (old.rating = 4), rating_5 = rating_5 - (old.rating = 5) WHERE id = old.broker_id;
  UPDATE brokers SET average_rating = CASE WHEN review_count = 0 THEN NULL
    ELSE round((rating_1 + 2 * rating_2 + 3 * rating_3 + 4 * rating_4 + 5 * rating_5) * 1.0 / review_count, 2) END
  WHERE id = old.broker_id;
END;
--> statement-breakpoint
CREATE TRIGGER reviews_aggregate_update_new AFTER UPDATE OF published, rating, broker_id ON reviews WHEN new.published = 1 BEGIN
  UPDATE brokers SET review_count = review_count + 1, rating_1 = rating_1 + (new.rating = 1), rating_2 = rating_2 + (new.rating = 2), rating_3 = rating_3 + (new.rating = 3), rating_4 = rating_4 + (new.rating = 4), rating_5 = rating_5 + (new.rating = 5) WHERE id = new.broker_id;
  UPDATE brokers SET average_rating = CASE WHEN review_count = 0 THEN NULL
    ELSE round((rating_1 + 2 * rating_2 + 3 * rating_3 + 4 * rating_4 + 5 * rating_5) * 1.0 / review_count, 2) END
  WHERE id = new.broker_id;
END;
--> statement-breakpoint
-- Read-path caches key on this number; every write to the directory bumps it.
INSERT INTO meta (key, value) VALUES ('directory_version', 0);
--> statement-breakpoint
CREATE TRIGGER brokers_version_insert AFTER INSERT ON brokers BEGIN
  UPDATE meta SET value = value + 1 WHERE key = 'directory_version';
END;
--> statement-breakpoint
CREATE TRIGGER brokers_version_update AFTER UPDATE ON brokers BEGIN
  UPDATE meta SET value = value + 1 WHERE key = 'directory_version';
END;
--> statement-breakpoint
CREATE TRIGGER brokers_version_delete AFTER DELETE ON brokers BEGIN
  UPDATE meta SET value = value + 1 WHERE key = 'directory_version';
END;
--> statement-breakpoint
CREATE TRIGGER broker_locations_version_insert AFTER INSERT ON broker_locations BEGIN
  UPDATE meta SET value = value + 1 WHERE key = 'directory_version';
END;
--> statement-breakpoint
CREATE TRIGGER broker_locations_version_update AFTER UPDATE ON broker_locations BEGIN
  UPDATE meta SET value = value + 1 WHERE key = 'directory_version';
END;
--> statement-breakpoint
CREATE TRIGGER broker_locations_version_delete AFTER DELETE ON broker_locations BEGIN
  UPDATE meta SET value = value + 1 WHERE key = 'directory_version';
END;
--> statement-breakpoint
CREATE TRIGGER broker_lines_version_insert AFTER INSERT ON broker_lines BEGIN
  UPDATE meta SET value = value + 1 WHERE key = 'directory_version';
END;
--> statement-breakpoint
CREATE TRIGGER broker_lines_version_update AFTER UPDATE ON broker_lines BEGIN
  UPDATE meta SET value = value + 1 WHERE key = 'directory_version';
END;
--> statement-breakpoint
CREATE TRIGGER broker_lines_version_delete AFTER DELETE ON broker_lines BEGIN
  UPDATE meta SET value = value + 1 WHERE key = 'directory_version';
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
