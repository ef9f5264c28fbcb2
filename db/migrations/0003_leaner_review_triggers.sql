-- One UPDATE per review write instead of two, and rating upkeep no longer bumps the directory
-- version a second time (the reviews triggers already do): seeding and first start do half the work.
DROP TRIGGER reviews_aggregate_insert;
--> statement-breakpoint
CREATE TRIGGER reviews_aggregate_insert AFTER INSERT ON reviews WHEN new.published = 1 BEGIN
  UPDATE brokers SET review_count = review_count + 1,
    rating_1 = rating_1 + (new.rating = 1), rating_2 = rating_2 + (new.rating = 2), rating_3 = rating_3 + (new.rating = 3), rating_4 = rating_4 + (new.rating = 4), rating_5 = rating_5 + (new.rating = 5),
    -- SET expressions read the row as it was, so the average folds in this review itself.
    average_rating = round(((rating_1 + 2 * rating_2 + 3 * rating_3 + 4 * rating_4 + 5 * rating_5) + new.rating) * 1.0 / (review_count + 1), 2)
  WHERE id = new.broker_id;
END;
--> statement-breakpoint
DROP TRIGGER reviews_aggregate_delete;
--> statement-breakpoint
CREATE TRIGGER reviews_aggregate_delete AFTER DELETE ON reviews WHEN old.published = 1 BEGIN
  UPDATE brokers SET review_count = review_count - 1,
    rating_1 = rating_1 - (old.rating = 1), rating_2 = rating_2 - (old.rating = 2), rating_3 = rating_3 - (old.rating = 3), rating_4 = rating_4 - (old.rating = 4), rating_5 = rating_5 - (old.rating = 5),
    -- SET expressions read the row as it was, so the average folds in this review itself.
    average_rating = CASE WHEN review_count - 1 = 0 THEN NULL ELSE round(((rating_1 + 2 * rating_2 + 3 * rating_3 + 4 * rating_4 + 5 * rating_5) - old.rating) * 1.0 / (review_count - 1), 2) END
  WHERE id = old.broker_id;
END;
--> statement-breakpoint
DROP TRIGGER reviews_aggregate_update_old;
--> statement-breakpoint
CREATE TRIGGER reviews_aggregate_update_old AFTER UPDATE OF published, rating, broker_id ON reviews WHEN old.published = 1 BEGIN
  UPDATE brokers SET review_count = review_count - 1,
    rating_1 = rating_1 - (old.rating = 1), rating_2 = rating_2 - (old.rating = 2), rating_3 = rating_3 - (old.rating = 3), rating_4 = rating_4 - (old.rating = 4), rating_5 = rating_5 - (old.rating = 5),
    -- SET expressions read the row as it was, so the average folds in this review itself.
    average_rating = CASE WHEN review_count - 1 = 0 THEN NULL ELSE round(((rating_1 + 2 * rating_2 + 3 * rating_3 + 4 * rating_4 + 5 * rating_5) - old.rating) * 1.0 / (review_count - 1), 2) END
  WHERE id = old.broker_id;
END;
--> statement-breakpoint
DROP TRIGGER reviews_aggregate_update_new;
--> statement-breakpoint
CREATE TRIGGER reviews_aggregate_update_new AFTER UPDATE OF published, rating, broker_id ON reviews WHEN new.published = 1 BEGIN
  UPDATE brokers SET review_count = review_count + 1,
    rating_1 = rating_1 + (new.rating = 1), rating_2 = rating_2 + (new.rating = 2), rating_3 = rating_3 + (new.rating = 3), rating_4 = rating_4 + (new.rating = 4), rating_5 = rating_5 + (new.rating = 5),
    -- SET expressions read the row as it was, so the average folds in this review itself.
    average_rating = round(((rating_1 + 2 * rating_2 + 3 * rating_3 + 4 * rating_4 + 5 * rating_5) + new.rating) * 1.0 / (review_count + 1), 2)
  WHERE id = new.broker_id;
END;
--> statement-breakpoint
DROP TRIGGER brokers_version_update;
--> statement-breakpoint
-- Every column but the rating aggregates, which only change with reviews (whose own triggers bump).
CREATE TRIGGER brokers_version_update AFTER UPDATE OF slug, name, sort_name, description, province, city, phone, email, website, license_number, year_established, insurance_lines, specialties, languages, published, created_at, updated_at ON brokers BEGIN
  UPDATE meta SET value = value + 1 WHERE key = 'directory_version';
END;
