-- keys_version: bumped by every change to a key that admission depends on, from any process,
-- so each process may cache keys by hash and still see a revocation, a new scope list, limit,
-- origins or expiry on the very next request. lastUsedAt (bookkeeping) does not bump it.
INSERT OR IGNORE INTO `meta` (`key`, `value`) VALUES ('keys_version', 0);
--> statement-breakpoint
CREATE TRIGGER api_keys_version_insert AFTER INSERT ON api_keys BEGIN
  UPDATE meta SET value = value + 1 WHERE key = 'keys_version';
END;
--> statement-breakpoint
CREATE TRIGGER api_keys_version_update AFTER UPDATE OF workspace_id, name, display_prefix, hash, scopes, rate_limit_per_minute, origins, expires_at, revoked_at ON api_keys BEGIN
  UPDATE meta SET value = value + 1 WHERE key = 'keys_version';
END;
--> statement-breakpoint
CREATE TRIGGER api_keys_version_delete AFTER DELETE ON api_keys BEGIN
  UPDATE meta SET value = value + 1 WHERE key = 'keys_version';
END;
