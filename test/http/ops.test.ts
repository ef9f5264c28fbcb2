import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server.ts";
import { sqliteOnly } from "../support/testDatabase.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ demo: false });
});
afterAll(() => server.close());

test("GET /readyz answers ready without a key when the database is reachable and migrated", async () => {
  const res = await server.request("/readyz");
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ status: "ready", mode: "read-write", checks: { database: "ok", migrations: "ok", writes: "ok", lifecycle: "serving" } });
});

// SQLite only: removes a migration row / closes the SQLite connection of the running server.
sqliteOnly("GET /readyz is 503 while a migration is missing, and ready again once it is back", async () => {
  const client = server.app.services.db.$client;
  const last = client.query<{ tag: string; applied_at: number }, []>("SELECT tag, applied_at FROM schema_migrations ORDER BY tag DESC LIMIT 1").get()!;
  client.run("DELETE FROM schema_migrations WHERE tag = ?", [last.tag]);
  try {
    const res = await server.request("/readyz");
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: "not ready", mode: "unavailable", checks: { database: "ok", migrations: "pending", writes: "ok", lifecycle: "serving" } });
  } finally {
    client.run("INSERT INTO schema_migrations (tag, applied_at) VALUES (?, ?)", [last.tag, last.applied_at]);
  }
  expect((await server.request("/readyz")).status).toBe(200);
});

// SQLite only: removes a migration row / closes the SQLite connection of the running server.
sqliteOnly("GET /healthz does no database work: it answers even with the database closed", async () => {
  const other = await startTestServer({ demo: false });
  try {
    other.app.services.db.$client.close();
    const health = await other.request("/healthz");
    expect(health.status).toBe(200);
    const ready = await other.request("/readyz");
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: "not ready", mode: "unavailable", checks: { database: "unreachable", migrations: "unknown", writes: "unknown", lifecycle: "serving" } });
  } finally {
    await other.close(); // the checkpoint on a closed database is skipped with a warning
  }
});
