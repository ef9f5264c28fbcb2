-- 0004 added team_size and is_verified after the trigger that moves the directory version was
-- written, so changing either left every cache serving the old value. Same trigger, both columns.
DROP TRIGGER brokers_version_update;--> statement-breakpoint
CREATE TRIGGER brokers_version_update AFTER UPDATE OF slug, name, sort_name, description, province, city, phone, email, website, license_number, founding_year, team_size, is_verified, insurance_lines, specialties, languages, published, created_at, updated_at ON brokers BEGIN
  UPDATE meta SET value = value + 1 WHERE key = 'directory_version';
END;
