CREATE TABLE `directory_audit` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`broker_id` integer NOT NULL,
	`review_id` integer,
	`actor` text NOT NULL,
	`at` integer NOT NULL,
	`action` text NOT NULL,
	`before` text,
	`after` text,
	`reason` text
);
--> statement-breakpoint
CREATE INDEX `directory_audit_broker` ON `directory_audit` (`broker_id`,`id`);--> statement-breakpoint
ALTER TABLE `brokers` ADD `external_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `brokers_external_id` ON `brokers` (`external_id`);--> statement-breakpoint
ALTER TABLE `reviews` ADD `external_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `reviews_external_id` ON `reviews` (`external_id`);