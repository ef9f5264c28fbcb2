import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { startApp, type AppOptions, type RunningApp } from "../../src/app.ts";
import type { Scope } from "../../src/auth/scopes.ts";
import { createLogger } from "../../src/log.ts";
import { createTestPgDatabase, onPostgres, type TestPgDatabase } from "./testDatabase.ts";

export interface TestKeyOptions {
  workspace?: string;
  name?: string;
  scopes?: Scope[];
  origins?: string[];
  rateLimitPerMinute?: number;
  expiresAt?: number | null;
}

export interface TestServer {
  url: string;
  app: RunningApp;
  databasePath: string;
  /** The PostgreSQL database it runs over (TEST_DATABASE=postgres), else undefined. */
  databaseUrl: string | undefined;
  /** Rows in a table of the database holding workspace data (SQLite's file, or PostgreSQL). */
  countRows(table: string): Promise<number>;
  /** Creates a key straight in the store (as the CLI would) and returns the secret. */
  createKey(options?: TestKeyOptions): Promise<string>;
  /** fetch against the server with `Authorization: Bearer key` when a key is given. */
  request(path: string, init?: RequestInit & { key?: string }): Promise<Response>;
  close(): Promise<void>;
}

/**
 * A real server for a test file: Bun.serve on an ephemeral port over a fresh SQLite file in
 * a temp dir, with the demo directory loaded unless `demo: false`. With TEST_DATABASE=postgres
 * (testDatabase.ts) it runs over a fresh PostgreSQL database (dropped on close; one named after
 * `databasePath` when that is given, so a restart finds its data) and TEST_REDIS_URL. Logs are silent unless
 * `app.logger` is given; `app` also carries the operator settings (publicUrl, metricsToken, mcpAllowedOrigins).
 */
export async function startTestServer(
  options: {
    demo?: boolean;
    app?: Partial<Pick<AppOptions, "logger" | "publicUrl" | "metricsToken" | "mcpAllowedOrigins" | "hostname" | "demoPublic">>;
    /** Reopen this database (a restart); its folder is then the caller's to remove. */
    databasePath?: string;
  } = {},
): Promise<TestServer> {
  const dir = options.databasePath ? undefined : mkdtempSync(join(tmpdir(), "broker-directory-test-"));
  const databasePath = options.databasePath ?? join(dir!, "directory.db");
  const pg = onPostgres ? await createTestPgDatabase(options.databasePath) : undefined;
  const app = await startApp({
    databasePath,
    ...(pg ? { databaseUrl: pg.url, redisUrl: process.env.TEST_REDIS_URL || undefined } : {}),
    port: 0,
    hostname: "127.0.0.1",
    demo: options.demo ?? true,
    logger: createLogger("silent"),
    ...options.app,
  });
  return {
    url: app.url,
    app,
    databasePath,
    databaseUrl: pg?.url,
    countRows: (table) => countRows(table, pg, app),
    async createKey(keyOptions = {}) {
      const { workspace = "test", ...rest } = keyOptions;
      // Awaited: over PostgreSQL the key store answers with a promise.
      return (await app.services.keys.create({ workspace, ...rest }, app.services.now())).key;
    },
    request(path, init = {}) {
      const { key, headers, ...rest } = init;
      const merged = new Headers(headers);
      if (key) merged.set("Authorization", `Bearer ${key}`);
      return fetch(app.url + path, { ...rest, headers: merged });
    },
    async close() {
      await app.stop(1_000);
      if (dir) rmSync(dir, { recursive: true, force: true });
      // A database named after a caller's databasePath outlives this server, like that file.
      if (pg && !options.databasePath) await pg.drop();
    },
  };
}

async function countRows(table: string, pg: TestPgDatabase | undefined, app: RunningApp): Promise<number> {
  if (!/^[a-z_]+$/.test(table)) throw new Error(`not a table name: ${table}`);
  if (!pg) return app.services.db.$client.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()!.n;
  const client = postgres(pg.url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await client.unsafe<{ n: number }[]>(`SELECT count(*)::integer AS n FROM ${table}`);
    return row!.n;
  } finally {
    await client.end();
  }
}
