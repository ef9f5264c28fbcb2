CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"display_prefix" text NOT NULL,
	"hash" text NOT NULL,
	"scopes" jsonb NOT NULL,
	"rate_limit_per_minute" integer NOT NULL,
	"origins" jsonb,
	"expires_at" bigint,
	"revoked_at" bigint,
	"created_at" bigint NOT NULL,
	"last_used_at" bigint
);
--> statement-breakpoint
CREATE TABLE "broker_lines" (
	"broker_id" integer NOT NULL,
	"line_key" text NOT NULL,
	CONSTRAINT "broker_lines_line_key_broker_id_pk" PRIMARY KEY("line_key","broker_id")
);
--> statement-breakpoint
CREATE TABLE "broker_locations" (
	"id" integer PRIMARY KEY NOT NULL,
	"broker_id" integer NOT NULL,
	"address" text NOT NULL,
	"city" text NOT NULL,
	"city_key" text NOT NULL,
	"province" text NOT NULL,
	"postal_code" text NOT NULL,
	"phone" text,
	"latitude" double precision,
	"longitude" double precision,
	"is_primary" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "brokers" (
	"id" integer PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"sort_name" text NOT NULL,
	"description" text NOT NULL,
	"province" text NOT NULL,
	"city" text NOT NULL,
	"phone" text,
	"email" text,
	"website" text,
	"license_number" text,
	"founding_year" integer,
	"team_size" text DEFAULT '1-10' NOT NULL,
	"is_verified" boolean DEFAULT false NOT NULL,
	"insurance_lines" jsonb NOT NULL,
	"specialties" jsonb NOT NULL,
	"languages" jsonb NOT NULL,
	"published" boolean NOT NULL,
	"review_count" integer DEFAULT 0 NOT NULL,
	"average_rating" double precision,
	"rating_1" integer DEFAULT 0 NOT NULL,
	"rating_2" integer DEFAULT 0 NOT NULL,
	"rating_3" integer DEFAULT 0 NOT NULL,
	"rating_4" integer DEFAULT 0 NOT NULL,
	"rating_5" integer DEFAULT 0 NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "carriers" (
	"slug" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"lines" jsonb NOT NULL,
	"provinces" jsonb NOT NULL,
	CONSTRAINT "carriers_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "console_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	"used_at" bigint
);
--> statement-breakpoint
CREATE TABLE "console_sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"created_at" bigint NOT NULL,
	"last_seen_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	"ended_at" bigint
);
--> statement-breakpoint
CREATE TABLE "directory_changes" (
	"seq" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "directory_changes_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"broker_id" integer NOT NULL,
	"ratings_only" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "key_usage_daily" (
	"key_id" text NOT NULL,
	"day" text NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	"refused" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "key_usage_daily_key_id_day_pk" PRIMARY KEY("key_id","day")
);
--> statement-breakpoint
CREATE TABLE "lead_events" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lead_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"lead_id" text NOT NULL,
	"status" text NOT NULL,
	"note" text,
	"actor" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "leads" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text NOT NULL,
	"insurance_type" text NOT NULL,
	"notes" text,
	"broker_slug" text,
	"quote_id" text,
	"source" text NOT NULL,
	"status" text NOT NULL,
	"created_at" bigint NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "leads_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1)
);
--> statement-breakpoint
CREATE TABLE "meta" (
	"key" text PRIMARY KEY NOT NULL,
	"value" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quote_offers" (
	"quote_id" text NOT NULL,
	"position" integer NOT NULL,
	"carrier_slug" text NOT NULL,
	"carrier_name" text NOT NULL,
	"annual_cents" integer NOT NULL,
	"monthly_cents" integer NOT NULL,
	"coverage" text NOT NULL,
	"deductible" integer NOT NULL,
	CONSTRAINT "quote_offers_quote_id_position_pk" PRIMARY KEY("quote_id","position")
);
--> statement-breakpoint
CREATE TABLE "quotes" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"insurance_type" text NOT NULL,
	"line" text NOT NULL,
	"province" text NOT NULL,
	"postal_code" text NOT NULL,
	"details" jsonb NOT NULL,
	"source" text NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reviews" (
	"id" integer PRIMARY KEY NOT NULL,
	"broker_id" integer NOT NULL,
	"author_name" text NOT NULL,
	"rating" integer NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"published" boolean NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "reviews_rating_range" CHECK ("reviews"."rating" between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "workspaces" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "workspaces_name_unique" UNIQUE("name")
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broker_lines" ADD CONSTRAINT "broker_lines_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broker_locations" ADD CONSTRAINT "broker_locations_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "console_links" ADD CONSTRAINT "console_links_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "console_sessions" ADD CONSTRAINT "console_sessions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "key_usage_daily" ADD CONSTRAINT "key_usage_daily_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_events" ADD CONSTRAINT "lead_events_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_quote_id_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."quotes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_offers" ADD CONSTRAINT "quote_offers_quote_id_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."quotes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_hash" ON "api_keys" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "api_keys_workspace" ON "api_keys" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "broker_lines_broker" ON "broker_lines" USING btree ("broker_id");--> statement-breakpoint
CREATE INDEX "broker_locations_broker" ON "broker_locations" USING btree ("broker_id");--> statement-breakpoint
CREATE UNIQUE INDEX "brokers_slug" ON "brokers" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "brokers_published_sort" ON "brokers" USING btree ("published","sort_name","id");--> statement-breakpoint
CREATE INDEX "console_links_expires" ON "console_links" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "console_sessions_workspace" ON "console_sessions" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "lead_events_lead" ON "lead_events" USING btree ("lead_id","id");--> statement-breakpoint
CREATE INDEX "leads_workspace_created" ON "leads" USING btree ("workspace_id","created_at","seq");--> statement-breakpoint
CREATE INDEX "leads_quote" ON "leads" USING btree ("quote_id");--> statement-breakpoint
CREATE INDEX "quotes_workspace_created" ON "quotes" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "quotes_expires" ON "quotes" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "reviews_broker" ON "reviews" USING btree ("broker_id");