import { DEFAULT_DATABASE_PATH, readSetting } from "../config.ts";
import { createLogger } from "../log.ts";
import { ConsoleLinkStore } from "../storage/stores/consoleLinkStore.ts";
import { ConsoleSessionStore } from "../storage/stores/consoleSessionStore.ts";
import { closeDatabase, openDatabase } from "../storage/sqlite/database.ts";
import { KeyStore } from "../storage/stores/keyStore.ts";
import { migrate } from "../storage/sqlite/migrate.ts";
import { SqliteExecutor } from "../storage/sqlite/sqliteExecutor.ts";
import { openMigratedPostgres } from "../storage/pg/migratePg.ts";
import { PgExecutor } from "../storage/pg/pgExecutor.ts";
import { closePostgres, isPostgresUrl } from "../storage/pg/pgDatabase.ts";
import { PgVersionWatch } from "../storage/pg/versionWatch.ts";
import { UsageError } from "./cliSupport.ts";
import { WebhookStore } from "../storage/stores/webhookStore.ts";

/** The --db / --database-url flags of the commands that manage keys and console access. */
export const DATABASE_FLAGS = { db: { type: "string" }, "database-url": { type: "string" } } as const;

export const DATABASE_FLAGS_HELP = `--db PATH (default DATABASE_PATH or ${DEFAULT_DATABASE_PATH}), or PostgreSQL with
--database-url URL (default DATABASE_URL; --db given alone means the SQLite file).`;

export interface WorkspaceStores {
  keys: KeyStore;
  consoleLinks: ConsoleLinkStore;
  consoleSessions: ConsoleSessionStore;
  webhooks: WebhookStore;
  close(): Promise<void>;
}

/**
 * The stores `keys`, `console-link` and `webhooks` change, in the database the server uses: PostgreSQL when
 * --database-url is given (or DATABASE_URL is set and --db is not), else the SQLite file. Either
 * is migrated first, as serve would. Writes are seen by running servers: over SQLite at their
 * next request, over PostgreSQL when it announces the change (within a second).
 */
export async function openWorkspaceStores(values: { db?: string; "database-url"?: string }, env: Record<string, string | undefined>): Promise<WorkspaceStores> {
  const url = postgresUrlOf(values, env);
  if (url === undefined) {
    const db = openDatabase(readSetting("databasePath", { flags: values, env }));
    migrate(db);
    const x = SqliteExecutor.of(db);
    return {
      keys: new KeyStore(x),
      consoleLinks: new ConsoleLinkStore(x),
      consoleSessions: new ConsoleSessionStore(x),
      webhooks: new WebhookStore(x),
      close: async () => closeDatabase(db),
    };
  }
  // One command, a few statements: two connections are plenty.
  const { pg } = await openMigratedPostgres(url, { max: 2 });
  // Not started: a command needs no announcements, only the version read after its own writes.
  const keysVersion = new PgVersionWatch(pg, "keys_version", createLogger("silent"));
  const x = new PgExecutor(pg);
  return {
    keys: new KeyStore(x, undefined, keysVersion),
    consoleLinks: new ConsoleLinkStore(x),
    consoleSessions: new ConsoleSessionStore(x),
    webhooks: new WebhookStore(x),
    close: () => closePostgres(pg),
  };
}

/**
 * The PostgreSQL URL a command works on: --database-url, or DATABASE_URL when --db is not given
 * (--db alone means the SQLite file); undefined for SQLite. Shared by every command that takes them.
 */
export function postgresUrlOf(values: { db?: string; "database-url"?: string }, env: Record<string, string | undefined>): string | undefined {
  const url = values["database-url"] ?? (values.db === undefined ? env.DATABASE_URL : undefined);
  if (url === undefined || url === "") return undefined;
  if (!isPostgresUrl(url)) throw new UsageError("--database-url / DATABASE_URL must be a postgres:// or postgresql:// URL.");
  return url;
}
