import { Database } from "bun:sqlite";
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
  /**
   * Runs SQL (that both dialects speak, `?` for parameters) on the database holding workspace
   * data (keys, leads, quotes, sessions, usage) through another connection, as a second instance
   * or the CLI would: the SQLite file, or PostgreSQL. Returns the rows.
   */
  rows<T = Record<string, unknown>>(sql: string, params?: SqlParam[]): Promise<T[]>;
  /** Rows in such a table. */
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
    app?: Partial<Pick<AppOptions, "logger" | "publicUrl" | "metricsToken" | "mcpAllowedOrigins" | "hostname" | "demoPublic" | "keyLimits" | "lockWaitSeconds" | "bodyTimeoutSeconds" | "maxUploadsPerClient" | "downloadsPerKey" | "webhooks">>;
    /** Reopen this database (a restart); its folder is then the caller's to remove. */
    databasePath?: string;
  } = {},
): Promise<TestServer> {
  const dir = options.databasePath ? undefined : mkdtempSync(join(tmpdir(), "broker-directory-test-"));
  const databasePath = options.databasePath ?? join(dir!, "directory.db");
  const pg = onPostgres ? await createTestPgDatabase(options.databasePath) : undefined;
  const app = await startApp({
    databasePath,
    // The store's timeout at 1 s, not 50 ms: a suite run saturates both cores, and a reply read late
    // would count as a hung store and the test's exact limits would loosen (test/cluster/redis-frozen.test.ts tests the default).
    ...(pg ? { databaseUrl: pg.url, redisUrl: process.env.TEST_REDIS_URL || undefined, redisTimeoutMs: 1_000 } : {}),
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
    rows: (sql, params) => workspaceRows(sql, params ?? [], pg, databasePath),
    async countRows(table) {
      if (!/^[a-z_]+$/.test(table)) throw new Error(`not a table name: ${table}`);
      return Number((await workspaceRows<{ n: number | string }>(`SELECT count(*) AS n FROM ${table}`, [], pg, databasePath))[0]!.n);
    },
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

type SqlParam = string | number | null;

async function workspaceRows<T>(sql: string, params: SqlParam[], pg: TestPgDatabase | undefined, databasePath: string): Promise<T[]> {
  if (!pg) {
    const other = new Database(databasePath);
    try {
      return other.query(sql).all(...params) as T[];
    } finally {
      other.close();
    }
  }
  const client = postgres(pg.url, { max: 1, onnotice: () => {} });
  try {
    let n = 0;
    return [...(await client.unsafe(sql.replace(/\?/g, () => `$${++n}`), params))] as T[];
  } finally {
    await client.end();
  }
}

/** The CLI flags that point a command at this server's database (PostgreSQL's URL, or the SQLite file). */
export function databaseFlags(server: Pick<TestServer, "databaseUrl" | "databasePath">): string[] {
  return server.databaseUrl ? ["--database-url", server.databaseUrl] : ["--db", server.databasePath];
}
