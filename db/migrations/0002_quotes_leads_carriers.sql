CREATE TABLE `carriers` (
	`slug` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`lines` text NOT NULL,
	`provinces` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `carriers_name_unique` ON `carriers` (`name`);--> statement-breakpoint
CREATE TABLE `leads` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`phone` text NOT NULL,
	`insurance_type` text NOT NULL,
	`notes` text,
	`broker_slug` text,
	`quote_id` text,
	`source` text NOT NULL,
	`status` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`quote_id`) REFERENCES `quotes`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `leads_workspace_created` ON `leads` (`workspace_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `leads_quote` ON `leads` (`quote_id`);--> statement-breakpoint
CREATE TABLE `quote_offers` (
	`quote_id` text NOT NULL,
	`position` integer NOT NULL,
	`carrier_slug` text NOT NULL,
	`carrier_name` text NOT NULL,
	`annual_cents` integer NOT NULL,
	`monthly_cents` integer NOT NULL,
	`coverage` text NOT NULL,
	`deductible` integer NOT NULL,
	PRIMARY KEY(`quote_id`, `position`),
	FOREIGN KEY (`quote_id`) REFERENCES `quotes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `quotes` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`insurance_type` text NOT NULL,
	`line` text NOT NULL,
	`province` text NOT NULL,
	`postal_code` text NOT NULL,
	`details` text NOT NULL,
	`source` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `quotes_workspace_created` ON `quotes` (`workspace_id`,`created_at`);--> statement-breakpoint
-- The carrier catalogue is part of the directory: its cache keys on directory_version too.
CREATE TRIGGER carriers_version_insert AFTER INSERT ON carriers BEGIN
  UPDATE meta SET value = value + 1 WHERE key = 'directory_version';
END;
--> statement-breakpoint
CREATE TRIGGER carriers_version_update AFTER UPDATE ON carriers BEGIN
  UPDATE meta SET value = value + 1 WHERE key = 'directory_version';
END;
--> statement-breakpoint
CREATE TRIGGER carriers_version_delete AFTER DELETE ON carriers BEGIN
  UPDATE meta SET value = value + 1 WHERE key = 'directory_version';
END;
