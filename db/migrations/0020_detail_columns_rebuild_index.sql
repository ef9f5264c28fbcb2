-- The search index now also answers a broker's detail from memory (src/storage/search/detailColumns.ts),
-- so an edit to any column a detail shows must rebuild it, not only those a search reads: the
-- contact fields, founding year, team size and the two dates join the trigger's list. Reviews
-- still move only the rating aggregates, which the index applies in place (ratings_only = 1).
DROP TRIGGER brokers_changes_update;--> statement-breakpoint
CREATE TRIGGER brokers_changes_update AFTER UPDATE ON brokers
WHEN old.id IS NOT new.id OR old.sort_name IS NOT new.sort_name OR old.published IS NOT new.published OR old.name IS NOT new.name
  OR old.slug IS NOT new.slug OR old.description IS NOT new.description OR old.province IS NOT new.province OR old.city IS NOT new.city
  OR old.is_verified IS NOT new.is_verified OR old.insurance_lines IS NOT new.insurance_lines
  OR old.languages IS NOT new.languages OR old.specialties IS NOT new.specialties
  OR old.phone IS NOT new.phone OR old.email IS NOT new.email OR old.website IS NOT new.website
  OR old.license_number IS NOT new.license_number OR old.founding_year IS NOT new.founding_year OR old.team_size IS NOT new.team_size
  OR old.created_at IS NOT new.created_at OR old.updated_at IS NOT new.updated_at BEGIN
  INSERT INTO directory_changes (broker_id, ratings_only) VALUES (new.id, 0);
END;
