/**
 * PostgreSQL out of reach (DATABASE_URL): every operation that needs it answers a clean 503
 * {error} with Retry-After (never a 500 or a stack), /readyz answers 503 naming the database,
 * what needs no PostgreSQL (a cached key reading the directory replica) goes on, and all of it
 * recovers without a restart. "Down" is a TCP relay the test cuts, so the shared server stays up.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Server } from "bun";
import { toPublicError } from "../../src/adapters/errorVocabulary.ts";
import { createLogger } from "../../src/log.ts";
import { startServer } from "../../src/server.ts";
import { createServices } from "../../src/services.ts";
import { closeDatabase, openDatabase, type DirectoryDb } from "../../src/storage/sqlite/database.ts";
import { migrate } from "../../src/storage/sqlite/migrate.ts";
import { closePostgres, openPostgres } from "../../src/storage/pg/pgDatabase.ts";
import { PgExecutor } from "../../src/storage/pg/pgExecutor.ts";
import { PgStorageHealth } from "../../src/storage/pg/pgStorageHealth.ts";
import { createPgStores, type RunningPgStores } from "../../src/storage/pg/pgStores.ts";
import { storageFaultOf } from "../../src/storage/storageFault.ts";
import { LeadStore } from "../../src/storage/stores/leadStore.ts";
import { createPgTestDatabase, type PgTestDatabase } from "../support/pgTestDatabase.ts";
import { TcpProxy } from "../support/tcpProxy.ts";
import { eventually } from "../support/eventually.ts";

describe("classification", () => {
  test("a pool on a closed port fails with a storage fault 'unavailable', and a 503 with Retry-After in the vocabulary", async () => {
    const closed = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    const port = closed.port;
    closed.stop(true);
    const pg = openPostgres(`postgres://postgres@127.0.0.1:${port}/none`, { max: 1 });
    try {
      const error = await Promise.resolve(new LeadStore(new PgExecutor(pg)).find("ld_x", "ws_x")).then(() => undefined, (e: unknown) => e);
      expect(storageFaultOf(error)).toBe("unavailable");
      const failure = toPublicError(error);
      expect(failure).toMatchObject({ status: 503, internal: false });
      expect(failure.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(failure.message).toContain("cannot reach its database");
      expect(await new PgStorageHealth(pg, createLogger("silent")).status()).toEqual({ database: "unreachable", migrations: "unknown", writes: "unknown" });
    } finally {
      await closePostgres(pg, 0);
    }
  });

  test("postgres.js connection states and server SQLSTATEs map to faults; other database errors do not", () => {
    const withCode = (code: string) => Object.assign(new Error(code), { code });
    for (const code of ["ECONNREFUSED", "ECONNRESET", "CONNECTION_ENDED", "CONNECTION_CLOSED", "CONNECTION_DESTROYED", "CONNECT_TIMEOUT", "57P01", "57P02", "57P03", "53300", "08006", "08001"]) {
      expect([code, storageFaultOf(withCode(code))]).toEqual([code, "unavailable"]);
    }
    expect(storageFaultOf(withCode("53100"))).toBe("full");
    expect(storageFaultOf(withCode("25006"))).toBe("read-only");
    expect(storageFaultOf(new Error("wrapped", { cause: withCode("57P01") }))).toBe("unavailable");
    for (const code of ["23505", "42P01", "22P02", "SQLITE_CONSTRAINT"]) expect(storageFaultOf(withCode(code))).toBeUndefined();
    expect(storageFaultOf(withCode("SQLITE_FULL"))).toBe("full");
    expect(storageFaultOf(withCode("SQLITE_READONLY_DBMOVED"))).toBe("read-only");
  });
});

describe("through the real server, with PostgreSQL cut and restored", () => {
  const logLines: string[] = [];
  let database: PgTestDatabase;
  let proxy: TcpProxy;
  let running: RunningPgStores;
  let replica: DirectoryDb;
  let dir: string;
  let server: Server<undefined>;
  let key: string;
  let url: string;

  beforeAll(async () => {
    database = await createPgTestDatabase();
    const target = new URL(database.url);
    proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
    proxy.start();
    const log = createLogger("info", (line) => logLines.push(line));
    const pg = openPostgres(proxy.urlFor(database.url));
    running = await createPgStores(pg, log);
    dir = mkdtempSync(join(tmpdir(), "pgstores-"));
    replica = openDatabase(join(dir, "replica.db"));
    migrate(replica);
    const services = createServices(replica, log, running.stores);
    server = startServer(services, { port: 0, hostname: "127.0.0.1" });
    url = `http://127.0.0.1:${server.port}`;
    key = (await running.stores.keys.create({ workspace: "outage", rateLimitPerMinute: 100_000 }, Date.now())).key;
  });
  afterAll(async () => {
    await server.stop(true);
    await running.stop();
    proxy.stop();
    closeDatabase(replica);
    rmSync(dir, { recursive: true, force: true });
    await database.drop();
  });

  const lead = (n: number) => ({ name: "Marie Tremblay", email: `marie${n}@example.ca`, phone: "(416) 555-0199", insuranceType: "Auto" });
  const request = (path: string, init: RequestInit & { key?: string } = {}) =>
    fetch(url + path, { ...init, headers: { ...(init.key ? { Authorization: `Bearer ${init.key}` } : {}), "Content-Type": "application/json", ...init.headers } });
  const postLead = (n: number, k = key) => request("/api/v1/leads", { key: k, method: "POST", body: JSON.stringify(lead(n)) });
  const readiness = async (path = "/readyz") => {
    const res = await request(path);
    const body = (await res.json()) as { mode: string; checks: Record<string, string> };
    return { status: res.status, mode: body.mode, checks: body.checks };
  };
  async function expect503(res: Response): Promise<void> {
    const text = await res.text();
    expect(res.status, text).toBe(503);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(text)).toEqual({
      error: expect.stringContaining("cannot reach its database"),
      code: "database_unavailable",
      requestId: res.headers.get("x-request-id"),
      docs: "/docs/manual/errors#database_unavailable",
    });
    expect(text).not.toMatch(/ECONN|postgres|at \/|\.ts:/i);
  }

  test("writes and workspace reads answer 503, /readyz stays 200 read-only (/readyz/writes 503) naming the database, the cached key still reads the replica; then all recovers", async () => {
    expect((await postLead(1)).status).toBe(201);
    const healthy = { status: 200, mode: "read-write", checks: { database: "ok", migrations: "ok", writes: "ok", lifecycle: "serving" } };
    expect(await readiness()).toEqual(healthy);
    expect(await readiness("/readyz/writes")).toEqual(healthy);

    proxy.stop();
    await expect503(await postLead(2));
    await expect503(await request("/api/v1/leads", { key }));
    // An uncached key cannot be checked: 503, not 401 (it may be a good key).
    await expect503(await request("/api/v1/brokers", { key: `brk_${"A".repeat(43)}` }));
    expect((await request("/api/v1/brokers?limit=1", { key })).status).toBe(200);
    // It can still serve (the replica answers reads): a balancer keeps it; writes are what it cannot do.
    const unreachable = { database: "unreachable", migrations: "unknown", writes: "unknown", lifecycle: "serving" };
    expect(await readiness()).toEqual({ status: 200, mode: "read-only", checks: unreachable });
    expect(await readiness("/readyz/writes")).toEqual({ status: 503, mode: "read-only", checks: unreachable });

    proxy.start();
    expect(await eventually(async () => (await readiness("/readyz/writes")).status === 200, 5_000)).toBe(true);
    expect((await postLead(3)).status).toBe(201);
    const listed = (await (await request("/api/v1/leads", { key })).json()) as { data: { email: string }[] };
    expect(listed.data.map((l) => l.email)).toEqual(["marie3@example.ca", "marie1@example.ca"]);

    const log = logLines.join("\n");
    expect(log).not.toContain("procedure failed");
    expect(log).not.toMatch(/marie\d@example/);
    expect(logLines.filter((line) => line.includes("database unreachable")).length).toBeGreaterThanOrEqual(1);
  });
});
