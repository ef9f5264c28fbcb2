/**
 * A full or read-only database: reads go on, bookkeeping never fails a request, every write
 * answers 503 {error} with Retry-After on every surface (no 500, no stack in the log), the
 * episode is logged once, and /readyz is 503 until a write works again. "Full" is a real
 * SQLITE_FULL from PRAGMA max_page_count; "read-only" a real SQLITE_READONLY from PRAGMA
 * query_only: both work unprivileged, so the test runs the same everywhere.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createLogger } from "../../src/log.ts";
import { MCP_HEADERS } from "../mcp/mcpSupport.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { sqliteOnly } from "../support/testDatabase.ts";

const logLines: string[] = [];
let server: TestServer;
let key: string;
beforeAll(async () => {
  server = await startTestServer({ app: { logger: createLogger("info", (line) => logLines.push(line)) } });
  key = await server.createKey({ workspace: "faults", rateLimitPerMinute: 100_000 });
});
afterAll(() => server.close());

const sql = (text: string) => server.app.services.db.$client.exec(text);
const lead = (n: number) => ({ name: "Marie Tremblay", email: `marie${n}@example.ca`, phone: "(416) 555-0199", insuranceType: "Auto", notes: "x".repeat(500) });
const postLead = (n: number, k = key) =>
  server.request("/api/v1/leads", { key: k, method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(lead(n)) });

async function readyStatus(): Promise<{ status: number; writes: string }> {
  const res = await server.request("/readyz");
  return { status: res.status, writes: ((await res.json()) as { checks: { writes: string } }).checks.writes };
}

/** /readyz probes at most once a second: poll until it says `status` (bounded). */
async function waitForReady(status: number): Promise<void> {
  for (let i = 0; i < 40; i++) {
    if ((await readyStatus()).status === status) return;
    await Bun.sleep(100);
  }
  throw new Error(`/readyz never answered ${status}`);
}

async function expect503(res: Response): Promise<void> {
  const text = await res.text();
  expect(res.status, text).toBe(503);
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  expect(text).not.toMatch(/SQLITE|at \/|\.ts:/);
}

// SQLite only: the fault is made in the SQLite file itself (PRAGMA query_only / max_page_count).
sqliteOnly("read-only: a new key's first read is 200 (lastUsedAt is bookkeeping), writes are 503 on every surface, /readyz 503 until writes work", async () => {
  const fresh = await server.createKey({ workspace: "faults" });
  const embedKey = await server.createKey({ workspace: "faults", origins: ["https://partner.example"] });
  sql("PRAGMA query_only = ON");
  try {
    expect((await server.request("/api/v1/brokers?limit=1", { key: fresh })).status).toBe(200);

    const rest = await postLead(1);
    await expect503(rest.clone());
    expect((await rest.json()) as unknown).toMatchObject({ error: expect.stringContaining("read-only"), code: "read_only" });

    const trpc = await server.request("/trpc/leads.create", { key, method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ json: lead(2) }) });
    await expect503(trpc.clone());
    expect(((await trpc.json()) as { error: { json: { data: { code: string; httpStatus: number } } } }).error.json.data).toMatchObject({ code: "SERVICE_UNAVAILABLE", httpStatus: 503, errorCode: "read_only" });

    const mcp = await server.request("/mcp", {
      key,
      method: "POST",
      headers: MCP_HEADERS,
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "create_lead", arguments: lead(3) } }),
    });
    await expect503(mcp.clone());
    expect(((await mcp.json()) as { id: number; error: { code: number } })).toMatchObject({ id: 7, error: { code: -31503, data: { code: "read_only" } } });

    const embed = await server.request("/api/v1/embed/quotes", {
      key: embedKey,
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: "https://partner.example" },
      body: JSON.stringify({ insuranceType: "Auto", province: "ON", postalCode: "M5V 2T6", details: { vehicleYear: 2020, vehicleMake: "Toyota", vehicleModel: "RAV4", driverAge: 35, cleanRecord: true } }),
    });
    await expect503(embed);

    expect(await readyStatus()).toEqual({ status: 503, writes: "read-only" });
  } finally {
    sql("PRAGMA query_only = OFF");
  }
  await waitForReady(200);
  expect((await postLead(4)).status).toBe(201);
});

// SQLite only: the fault is made in the SQLite file itself (PRAGMA query_only / max_page_count).
sqliteOnly("full: writes answer 503 once the database is full, logged once per episode, and /readyz recovers", async () => {
  logLines.length = 0;
  const pages = server.app.services.db.$client.query<{ page_count: number }, []>("PRAGMA page_count").get()!.page_count;
  sql(`PRAGMA max_page_count = ${pages}`);
  try {
    let status = 201;
    let n = 100;
    for (; n < 400 && status === 201; n++) status = (await postLead(n)).status;
    expect(status).toBe(503);
    const full = await postLead(n++);
    await expect503(full.clone());
    expect((await full.json()) as unknown).toMatchObject({ code: "storage_full" });
    await expect503(await postLead(n++));
    expect(await readyStatus()).toEqual({ status: 503, writes: "full" });
    // Reads go on.
    expect((await server.request("/api/v1/brokers?limit=1", { key })).status).toBe(200);
  } finally {
    sql("PRAGMA max_page_count = 1073741823");
  }
  const faultLines = logLines.filter((line) => line.includes("database writes are failing"));
  expect(faultLines.length).toBe(1);
  expect(logLines.join("\n")).not.toContain("procedure failed");
  expect(logLines.join("\n")).not.toMatch(/marie\d+@example/);
  await waitForReady(200);
  expect(logLines.some((line) => line.includes("database writes work again"))).toBe(true);
  expect((await postLead(1000)).status).toBe(201);
});
