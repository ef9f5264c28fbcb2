CREATE TABLE `directory_changes` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`broker_id` integer NOT NULL,
	`ratings_only` integer NOT NULL
);
--> statement-breakpoint
-- A review moved a broker's average or count (the rating aggregate triggers): the search index
-- updates that broker's ratings in place.
CREATE TRIGGER brokers_changes_ratings AFTER UPDATE OF average_rating, review_count ON brokers
WHEN old.average_rating IS NOT new.average_rating OR old.review_count IS NOT new.review_count BEGIN
  INSERT INTO directory_changes (broker_id, ratings_only) VALUES (new.id, 1);
END;
--> statement-breakpoint
-- Anything else the search index holds (order, publication, text, lists, verification, what a
-- list item shows): it rebuilds.
CREATE TRIGGER brokers_changes_update AFTER UPDATE ON brokers
WHEN old.id IS NOT new.id OR old.sort_name IS NOT new.sort_name OR old.published IS NOT new.published OR old.name IS NOT new.name
  OR old.slug IS NOT new.slug OR old.description IS NOT new.description OR old.province IS NOT new.province OR old.city IS NOT new.city
  OR old.is_verified IS NOT new.is_verified OR old.insurance_lines IS NOT new.insurance_lines
  OR old.languages IS NOT new.languages OR old.specialties IS NOT new.specialties BEGIN
  INSERT INTO directory_changes (broker_id, ratings_only) VALUES (new.id, 0);
END;
--> statement-breakpoint
CREATE TRIGGER brokers_changes_insert AFTER INSERT ON brokers BEGIN
  INSERT INTO directory_changes (broker_id, ratings_only) VALUES (new.id, 0);
END;
--> statement-breakpoint
CREATE TRIGGER brokers_changes_delete AFTER DELETE ON brokers BEGIN
  INSERT INTO directory_changes (broker_id, ratings_only) VALUES (old.id, 0);
END;
--> statement-breakpoint
CREATE TRIGGER broker_locations_changes_insert AFTER INSERT ON broker_locations BEGIN
  INSERT INTO directory_changes (broker_id, ratings_only) VALUES (new.broker_id, 0);
END;
--> statement-breakpoint
CREATE TRIGGER broker_locations_changes_update AFTER UPDATE ON broker_locations BEGIN
  INSERT INTO directory_changes (broker_id, ratings_only) VALUES (new.broker_id, 0);
END;
--> statement-breakpoint
CREATE TRIGGER broker_locations_changes_delete AFTER DELETE ON broker_locations BEGIN
  INSERT INTO directory_changes (broker_id, ratings_only) VALUES (old.broker_id, 0);
END;
--> statement-breakpoint
CREATE TRIGGER broker_lines_changes_insert AFTER INSERT ON broker_lines BEGIN
  INSERT INTO directory_changes (broker_id, ratings_only) VALUES (new.broker_id, 0);
END;
--> statement-breakpoint
CREATE TRIGGER broker_lines_changes_update AFTER UPDATE ON broker_lines BEGIN
  INSERT INTO directory_changes (broker_id, ratings_only) VALUES (new.broker_id, 0);
END;
--> statement-breakpoint
CREATE TRIGGER broker_lines_changes_delete AFTER DELETE ON broker_lines BEGIN
  INSERT INTO directory_changes (broker_id, ratings_only) VALUES (old.broker_id, 0);
END;
--> statement-breakpoint
-- The latest 10,000 changes are kept: one row out for each row in.
CREATE TRIGGER directory_changes_keep_latest AFTER INSERT ON directory_changes BEGIN
  DELETE FROM directory_changes WHERE seq <= new.seq - 10000;
END;
