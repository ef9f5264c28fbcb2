-- The column SQLite's outbox uses (db/migrations/0019_webhook_fanout.sql), so both dialects have
-- the same tables; PostgreSQL writes an event's deliveries with it and leaves this null.
ALTER TABLE "webhook_events" ADD COLUMN "endpoint_ids" jsonb;
