CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`display_prefix` text NOT NULL,
	`hash` text NOT NULL,
	`scopes` text NOT NULL,
	`rate_limit_per_minute` integer NOT NULL,
	`origins` text,
	`expires_at` integer,
	`revoked_at` integer,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash` ON `api_keys` (`hash`);--> statement-breakpoint
CREATE INDEX `api_keys_workspace` ON `api_keys` (`workspace_id`);--> statement-breakpoint
CREATE TABLE `broker_lines` (
	`broker_id` integer NOT NULL,
	`line_key` text NOT NULL,
	PRIMARY KEY(`line_key`, `broker_id`),
	FOREIGN KEY (`broker_id`) REFERENCES `brokers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `broker_lines_broker` ON `broker_lines` (`broker_id`);--> statement-breakpoint
CREATE TABLE `broker_locations` (
	`id` integer PRIMARY KEY NOT NULL,
	`broker_id` integer NOT NULL,
	`address` text NOT NULL,
	`city` text NOT NULL,
	`city_key` text NOT NULL,
	`province` text NOT NULL,
	`postal_code` text NOT NULL,
	`phone` text,
	`latitude` real,
	`longitude` real,
	`is_primary` integer NOT NULL,
	FOREIGN KEY (`broker_id`) REFERENCES `brokers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `broker_locations_broker` ON `broker_locations` (`broker_id`);--> statement-breakpoint
CREATE INDEX `broker_locations_province_city` ON `broker_locations` (`province`,`city_key`,`broker_id`);--> statement-breakpoint
CREATE INDEX `broker_locations_city` ON `broker_locations` (`city_key`,`broker_id`);--> statement-breakpoint
CREATE TABLE `brokers` (
	`id` integer PRIMARY KEY NOT NULL,
	`slug` text NOT NULL,
	`name` text NOT NULL,
	`sort_name` text NOT NULL,
	`description` text NOT NULL,
	`province` text NOT NULL,
	`city` text NOT NULL,
	`phone` text,
	`email` text,
	`website` text,
	`license_number` text,
	`year_established` integer,
	`insurance_lines` text NOT NULL,
	`specialties` text NOT NULL,
	`languages` text NOT NULL,
	`published` integer NOT NULL,
	`review_count` integer DEFAULT 0 NOT NULL,
	`average_rating` real,
	`rating_1` integer DEFAULT 0 NOT NULL,
	`rating_2` integer DEFAULT 0 NOT NULL,
	`rating_3` integer DEFAULT 0 NOT NULL,
	`rating_4` integer DEFAULT 0 NOT NULL,
	`rating_5` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `brokers_slug` ON `brokers` (`slug`);--> statement-breakpoint
CREATE INDEX `brokers_published_sort` ON `brokers` (`published`,`sort_name`,`id`);--> statement-breakpoint
CREATE TABLE `meta` (
	`key` text PRIMARY KEY NOT NULL,
	`value` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `reviews` (
	`id` integer PRIMARY KEY NOT NULL,
	`broker_id` integer NOT NULL,
	`author_name` text NOT NULL,
	`rating` integer NOT NULL,
	`title` text NOT NULL,
	`body` text NOT NULL,
	`published` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`broker_id`) REFERENCES `brokers`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "reviews_rating_range" CHECK("reviews"."rating" between 1 and 5)
);
--> statement-breakpoint
CREATE INDEX `reviews_broker_published_created` ON `reviews` (`broker_id`,`published`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `workspaces` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `workspaces_name_unique` ON `workspaces` (`name`);