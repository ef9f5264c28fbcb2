import { readSetting } from "../config.ts";
import type { Executor } from "../storage/executor.ts";
import { openMigratedPostgres } from "../storage/pg/migratePg.ts";
import { PgExecutor } from "../storage/pg/pgExecutor.ts";
import { closePostgres, unreachable } from "../storage/pg/pgDatabase.ts";
import { closeDatabase, openDatabase } from "../storage/sqlite/database.ts";
import { migrate } from "../storage/sqlite/migrate.ts";
import { SqliteExecutor } from "../storage/sqlite/sqliteExecutor.ts";
import { withoutPassword } from "./printableUrl.ts";
import { postgresUrlOf } from "./workspaceStores.ts";

/** The import's page cache over SQLite, in KiB. */
const IMPORT_CACHE_KIB = 64 * 1024;
/** Pages of write-ahead log (4 KiB each) after which an import's commit copies it back into the file. */
const IMPORT_AUTOCHECKPOINT_PAGES = 16_384;

export interface DirectoryWriter {
  /** The stores' executor over the database the server uses. */
  x: Executor;
  /** What is written to, printable: the SQLite path or the URL without its password. */
  target: string;
  /** Turns a failure to reach PostgreSQL into one line naming the server (unchanged with SQLite). */
  explain(error: unknown): unknown;
  close(): Promise<void>;
}

/**
 * The directory of the database the server uses, for `import` and `export`: PostgreSQL with
 * --database-url (or DATABASE_URL without --db), else the SQLite file; migrated first, as serve
 * would. The command is a process of its own: over SQLite its writes go through the
 * connection's group commit (each batch one transaction, waiting its turn behind a serving
 * process's writes, COMMAND_BUSY_TIMEOUT_MS), over PostgreSQL one transaction each.
 */
export async function openDirectoryWriter(values: { db?: string; "database-url"?: string }, env: Record<string, string | undefined>): Promise<DirectoryWriter> {
  const url = postgresUrlOf(values, env);
  if (url === undefined) {
    const target = readSetting("databasePath", { flags: values, env });
    const db = openDatabase(target);
    migrate(db);
    // Pages through a bounded cache rather than the 1 GiB map a server reads with: an import
    // touches the whole file once (1.2 million reviews: a 750 MB file), and mapped pages count in
    // the process's memory (577 MB peak with the map). 64 MiB holds the B-trees' upper pages.
    db.$client.exec("PRAGMA mmap_size = 0");
    db.$client.exec(`PRAGMA cache_size = -${IMPORT_CACHE_KIB}`);
    // Copies the log back into the file every 64 MiB of it rather than every 4 MiB: a page the
    // import writes again and again (an index's, a broker's aggregates) is copied once per
    // checkpoint, not once per few batches, and the commits that checkpoint are 16 times fewer.
    db.$client.exec(`PRAGMA wal_autocheckpoint = ${IMPORT_AUTOCHECKPOINT_PAGES}`);
    return { x: SqliteExecutor.of(db), target, explain: (error) => error, close: async () => closeDatabase(db) };
  }
  // One batch at a time: two connections are plenty (a read beside a write at most).
  const { pg } = await openMigratedPostgres(url, { max: 2 }).catch((error: unknown) => {
    throw unreachable(error, url);
  });
  return { x: new PgExecutor(pg), target: withoutPassword(url), explain: (error) => unreachable(error, url), close: () => closePostgres(pg) };
}
