-- What SQLite's triggers do (db/migrations/0001, 0007, 0009), for PostgreSQL, plus the
-- announcements every instance listens for. Rows written with the transaction-local setting
-- broker_directory.bulk_load = 'on' (the seed, which brings its aggregates computed and writes one
-- "reload everything" change, broker 0) skip the per-row work.
INSERT INTO meta (key, value) VALUES ('directory_version', 0), ('keys_version', 0) ON CONFLICT (key) DO NOTHING;
--> statement-breakpoint
CREATE FUNCTION directory_bulk_load() RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT coalesce(current_setting('broker_directory.bulk_load', true), '') = 'on'
$$;
--> statement-breakpoint
-- A broker's rating aggregates from its published reviews, rounded as SQLite rounds them.
CREATE FUNCTION recount_broker_ratings(broker integer) RETURNS void LANGUAGE sql AS $$
  UPDATE brokers SET (review_count, average_rating, rating_1, rating_2, rating_3, rating_4, rating_5) = (
    SELECT count(*)::integer,
      CASE WHEN count(*) = 0 THEN NULL ELSE round(avg(rating)::numeric, 2)::double precision END,
      count(*) FILTER (WHERE rating = 1)::integer, count(*) FILTER (WHERE rating = 2)::integer,
      count(*) FILTER (WHERE rating = 3)::integer, count(*) FILTER (WHERE rating = 4)::integer,
      count(*) FILTER (WHERE rating = 5)::integer
    FROM reviews WHERE broker_id = broker AND published)
  WHERE id = broker
$$;
--> statement-breakpoint
CREATE FUNCTION reviews_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF directory_bulk_load() THEN RETURN NULL; END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM recount_broker_ratings(OLD.broker_id);
    INSERT INTO directory_changes (broker_id, ratings_only) VALUES (OLD.broker_id, true);
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.broker_id <> OLD.broker_id) THEN
    PERFORM recount_broker_ratings(NEW.broker_id);
    INSERT INTO directory_changes (broker_id, ratings_only) VALUES (NEW.broker_id, true);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER reviews_changed AFTER INSERT OR UPDATE OR DELETE ON reviews FOR EACH ROW EXECUTE FUNCTION reviews_changed();
--> statement-breakpoint
-- A broker row changed: ratings_only when nothing but its aggregates moved (a review did it).
CREATE FUNCTION brokers_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  aggregates constant text[] := ARRAY['review_count', 'average_rating', 'rating_1', 'rating_2', 'rating_3', 'rating_4', 'rating_5'];
BEGIN
  IF directory_bulk_load() THEN RETURN NULL; END IF;
  IF TG_OP = 'DELETE' THEN
    INSERT INTO directory_changes (broker_id, ratings_only) VALUES (OLD.id, false);
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO directory_changes (broker_id, ratings_only) VALUES (NEW.id, false);
  ELSIF to_jsonb(NEW) IS DISTINCT FROM to_jsonb(OLD) THEN
    INSERT INTO directory_changes (broker_id, ratings_only)
    VALUES (NEW.id, (to_jsonb(NEW) - aggregates) = (to_jsonb(OLD) - aggregates));
    IF NEW.id <> OLD.id THEN
      INSERT INTO directory_changes (broker_id, ratings_only) VALUES (OLD.id, false);
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER brokers_changed AFTER INSERT OR UPDATE OR DELETE ON brokers FOR EACH ROW EXECUTE FUNCTION brokers_changed();
--> statement-breakpoint
-- An office or an insurance line of a broker changed.
CREATE FUNCTION broker_part_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF directory_bulk_load() THEN RETURN NULL; END IF;
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO directory_changes (broker_id, ratings_only) VALUES (OLD.broker_id, false);
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.broker_id <> OLD.broker_id) THEN
    INSERT INTO directory_changes (broker_id, ratings_only) VALUES (NEW.broker_id, false);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER broker_locations_changed AFTER INSERT OR UPDATE OR DELETE ON broker_locations FOR EACH ROW EXECUTE FUNCTION broker_part_changed();
--> statement-breakpoint
CREATE TRIGGER broker_lines_changed AFTER INSERT OR UPDATE OR DELETE ON broker_lines FOR EACH ROW EXECUTE FUNCTION broker_part_changed();
--> statement-breakpoint
-- Once per statement that touched the directory (any writer: the app, psql, a migration):
-- the version moves and every instance is told. NOTIFY is sent at commit, never for a rollback.
CREATE FUNCTION directory_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  version bigint;
BEGIN
  UPDATE meta SET value = value + 1 WHERE key = 'directory_version' RETURNING value INTO version;
  PERFORM pg_notify('directory_changed', version::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER brokers_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON brokers FOR EACH STATEMENT EXECUTE FUNCTION directory_version_bump();
--> statement-breakpoint
CREATE TRIGGER broker_locations_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON broker_locations FOR EACH STATEMENT EXECUTE FUNCTION directory_version_bump();
--> statement-breakpoint
CREATE TRIGGER broker_lines_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON broker_lines FOR EACH STATEMENT EXECUTE FUNCTION directory_version_bump();
--> statement-breakpoint
CREATE TRIGGER reviews_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON reviews FOR EACH STATEMENT EXECUTE FUNCTION directory_version_bump();
--> statement-breakpoint
CREATE TRIGGER carriers_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON carriers FOR EACH STATEMENT EXECUTE FUNCTION directory_version_bump();
--> statement-breakpoint
-- The latest 10,000 changes are kept; a replica further behind reloads everything.
CREATE FUNCTION directory_changes_keep_latest() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM directory_changes WHERE seq <= (SELECT max(seq) FROM directory_changes) - 10000;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER directory_changes_keep_latest AFTER INSERT ON directory_changes FOR EACH STATEMENT EXECUTE FUNCTION directory_changes_keep_latest();
--> statement-breakpoint
-- keys_version: a change to anything admission reads (not last_used_at) moves it and is announced,
-- so every instance drops its cached keys within the announcement's delay (or the poll's).
CREATE FUNCTION keys_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  version bigint;
BEGIN
  UPDATE meta SET value = value + 1 WHERE key = 'keys_version' RETURNING value INTO version;
  PERFORM pg_notify('keys_changed', version::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER api_keys_version_insert_delete AFTER INSERT OR DELETE ON api_keys FOR EACH STATEMENT EXECUTE FUNCTION keys_version_bump();
--> statement-breakpoint
CREATE TRIGGER api_keys_version_update AFTER UPDATE OF workspace_id, name, display_prefix, hash, scopes, rate_limit_per_minute, origins, expires_at, revoked_at ON api_keys FOR EACH STATEMENT EXECUTE FUNCTION keys_version_bump();
