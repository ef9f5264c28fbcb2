import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestServer } from "../support/server.ts";

test("usage counted in memory reaches the daily table at shutdown, and reads back after a restart", async () => {
  const dir = mkdtempSync(join(tmpdir(), "usage-flush-"));
  const databasePath = join(dir, "directory.db");
  try {
    const first = await startTestServer({ demo: false, databasePath });
    const key = await first.createKey({ workspace: "acme", scopes: ["brokers:read", "keys:manage"] });
    for (let i = 0; i < 4; i++) expect((await first.request("/api/v1/carriers", { key })).status).toBe(200);
    const rowsBefore = await first.rows("SELECT * FROM key_usage_daily");
    expect(rowsBefore).toEqual([]); // nothing written on the request path
    await first.close();

    const second = await startTestServer({ demo: false, databasePath });
    try {
      const rows = await second.rows<{ requests: number | string; refused: number | string }>("SELECT requests, refused FROM key_usage_daily");
      expect(rows.map((r) => ({ requests: Number(r.requests), refused: Number(r.refused) }))).toEqual([{ requests: 4, refused: 0 }]);
      const usage = await second.request("/api/v1/keys/usage?days=1", { key });
      const { data } = (await usage.json()) as { data: { totals: { requests: number } } };
      expect(data.totals.requests).toBe(5); // the four, and this request itself
    } finally {
      await second.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
