-- The directory's audit trail is append-only (issue 27): a row, once written, is never changed or
-- removed, whoever asks (an import, the API, a hand-typed statement).
CREATE FUNCTION directory_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'directory_audit is append-only';
END $$;
--> statement-breakpoint
CREATE TRIGGER directory_audit_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON directory_audit FOR EACH STATEMENT EXECUTE FUNCTION directory_audit_append_only();
