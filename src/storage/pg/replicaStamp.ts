import { MIGRATIONS } from "../../../db/migrations.ts";
import { PG_MIGRATIONS } from "../../../db/migrationsPg.ts";
import type { DirectoryDb } from "../sqlite/database.ts";
import type { PgDb } from "./pgDatabase.ts";
import { bootId } from "./replicaSlot.ts";

/**
 * What a replica file says of itself, in its `meta` table, so that a later start can tell whether
 * it may be reused: where it came from (`origin`), the PostgreSQL directory version and journal
 * position it holds, and whether its last load finished.
 */
export interface ReplicaStamp {
  /** A hash of the PostgreSQL database's id, both schemas' migrations and the machine's boot. */
  origin: number;
  version: number;
  /** The journal is read again from after this number (the cursor's readFrom, gaps included). */
  journal: number;
  complete: boolean;
}

const KEYS = { origin: "replica_origin", version: "replica_version", journal: "replica_journal", complete: "replica_complete" } as const;

/**
 * What this binary and this PostgreSQL database stamp a replica with, and PostgreSQL's directory
 * version now. The database's id is a random number PostgreSQL's `meta` keeps (made by the first
 * instance that asks; a copy of the database made by pg_dump carries it, and its older version
 * then refuses the reuse). The boot id is in it because the replica is written without fsync: a
 * file from before a power loss may be torn, and is loaded again instead.
 */
export async function replicaOrigin(pg: PgDb): Promise<{ origin: number; pgVersion: number }> {
  await pg.$client`INSERT INTO meta (key, value) VALUES ('database_id', floor(random() * 4503599627370496)::bigint) ON CONFLICT (key) DO NOTHING`;
  const rows = await pg.$client<{ key: string; value: string }[]>`SELECT key, value FROM meta WHERE key IN ('database_id', 'directory_version')`;
  const value = (key: string) => rows.find((r) => r.key === key)?.value ?? "";
  const parts = [value("database_id"), ...PG_MIGRATIONS.map((m) => m.tag), "|", ...MIGRATIONS.map((m) => m.tag), "|", bootId()];
  return { origin: Number(Bun.hash(parts.join(",")) % 4503599627370496n), pgVersion: Number(value("directory_version") || 0) };
}

/** The stamp a replica file carries, or undefined when it has none (or is not a replica at all). */
export function readStamp(db: DirectoryDb): ReplicaStamp | undefined {
  try {
    const rows = db.$client.query<{ key: string; value: number }, []>(`SELECT key, value FROM meta WHERE key LIKE 'replica\\_%' ESCAPE '\\'`).all();
    const value = (key: string) => rows.find((r) => r.key === key)?.value;
    const [origin, version, journal, complete] = [value(KEYS.origin), value(KEYS.version), value(KEYS.journal), value(KEYS.complete)];
    if (origin === undefined || version === undefined || journal === undefined || complete === undefined) return undefined;
    return { origin, version, journal, complete: complete === 1 };
  } catch {
    return undefined; // no meta table: an empty or foreign file
  }
}

/** Writes the stamp (one small transaction). */
export function writeStamp(db: DirectoryDb, stamp: ReplicaStamp): void {
  const client = db.$client;
  const put = client.prepare<unknown, [string, number]>("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value");
  client.transaction(() => {
    put.run(KEYS.origin, stamp.origin);
    put.run(KEYS.version, stamp.version);
    put.run(KEYS.journal, stamp.journal);
    put.run(KEYS.complete, stamp.complete ? 1 : 0);
  })();
}
