/**
 * How long a request's statement may take by default (DATABASE_TIMEOUT_SECONDS, src/config.ts).
 * A file of its own so that config.ts can name it without loading PostgreSQL's driver: an
 * instance on SQLite never loads it (see app.ts, openSharedStorageLazily).
 */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 5_000;
