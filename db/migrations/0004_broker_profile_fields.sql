ALTER TABLE `brokers` RENAME COLUMN "year_established" TO "founding_year";--> statement-breakpoint
ALTER TABLE `brokers` ADD `team_size` text DEFAULT '1-10' NOT NULL;--> statement-breakpoint
ALTER TABLE `brokers` ADD `is_verified` integer DEFAULT false NOT NULL;--> statement-breakpoint
-- Existing brokers get the same team-size band and verification mark the demo generator gives
-- (db/seed/profileBands.ts): a pure function of the id, so an upgraded demo equals a fresh one.
UPDATE `brokers` SET
  `team_size` = CASE
    WHEN (`id` * 37) % 20 < 9 THEN '1-10'
    WHEN (`id` * 37) % 20 < 15 THEN '11-50'
    WHEN (`id` * 37) % 20 < 18 THEN '51-200'
    WHEN (`id` * 37) % 20 = 18 THEN '201-500'
    ELSE '500+' END,
  `is_verified` = (`license_number` IS NOT NULL AND (`id` * 13) % 10 < 7);
