CREATE TABLE "directory_audit" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "directory_audit_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"broker_id" integer NOT NULL,
	"review_id" integer,
	"actor" text NOT NULL,
	"at" bigint NOT NULL,
	"action" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"reason" text
);
--> statement-breakpoint
ALTER TABLE "brokers" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "external_id" text;--> statement-breakpoint
CREATE INDEX "directory_audit_broker" ON "directory_audit" USING btree ("broker_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "brokers_external_id" ON "brokers" USING btree ("external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "reviews_external_id" ON "reviews" USING btree ("external_id");