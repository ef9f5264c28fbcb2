CREATE TABLE `idempotency_records` (
	`workspace_id` text NOT NULL,
	`key` text NOT NULL,
	`fingerprint` text NOT NULL,
	`answer` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`workspace_id`, `key`),
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `idempotency_records_created` ON `idempotency_records` (`created_at`);