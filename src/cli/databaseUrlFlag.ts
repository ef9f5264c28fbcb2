import { isPostgresUrl } from "../storage/pg/pgDatabase.ts";
import { UsageError } from "./cliSupport.ts";

/** The `--database-url URL` option of the commands that also work on PostgreSQL. */
export const DATABASE_URL_OPTION = { "database-url": { type: "string" } } as const;

/**
 * The PostgreSQL URL a command works on (--database-url, else DATABASE_URL), or undefined for the
 * SQLite file. The message for a bad one never repeats it (it may hold a password).
 */
export function databaseUrlOf(flag: string | undefined, env: Record<string, string | undefined>): string | undefined {
  const url = flag ?? env.DATABASE_URL;
  if (url === undefined || url === "") return undefined;
  if (!isPostgresUrl(url)) throw new UsageError("DATABASE_URL / --database-url must be a postgres:// or postgresql:// URL.");
  return url;
}

/** The URL with its password taken out, for printing. */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = "";
    return parsed.toString();
  } catch {
    return "postgres://…";
  }
}
