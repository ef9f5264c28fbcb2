import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startApp, type AppOptions, type RunningApp } from "../../src/app.ts";
import type { Scope } from "../../src/auth/scopes.ts";
import { createLogger } from "../../src/log.ts";

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
  /** Creates a key straight in the store (as the CLI would) and returns the secret. */
  createKey(options?: TestKeyOptions): Promise<string>;
  /** fetch against the server with `Authorization: Bearer key` when a key is given. */
  request(path: string, init?: RequestInit & { key?: string }): Promise<Response>;
  close(): Promise<void>;
}

/**
 * A real server for a test file: Bun.serve on an ephemeral port over a fresh SQLite file in
 * a temp dir, with the demo directory loaded unless `demo: false`. Logs are silent unless
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
  const app = await startApp({
    databasePath,
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
    async createKey(keyOptions = {}) {
      const { workspace = "test", ...rest } = keyOptions;
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
    },
  };
}
