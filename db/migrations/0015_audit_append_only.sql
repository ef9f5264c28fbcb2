-- The directory's audit trail is append-only (issue 27): a row, once written, is never changed or
-- removed, whoever asks (an import, the API, a hand-typed statement).
CREATE TRIGGER directory_audit_no_update BEFORE UPDATE ON directory_audit BEGIN
  SELECT RAISE(ABORT, 'directory_audit is append-only');
END;
--> statement-breakpoint
CREATE TRIGGER directory_audit_no_delete BEFORE DELETE ON directory_audit BEGIN
  SELECT RAISE(ABORT, 'directory_audit is append-only');
END;
