/**
 * A running server sees what `import` writes to its database (issue 27): over SQLite through the
 * directory version the import's triggers move (the WAL change signal), over PostgreSQL through
 * directory_changes, which each instance's replica follows. The bound is the issue's: within a
 * second of the command's end, the new broker answers on the API, and its reviews count.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { REPO, runCli } from "./cliHarness.ts";
import { eventually } from "../support/eventually.ts";
import { databaseFlags, startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
let key: string;
beforeAll(async () => {
  server = await startTestServer();
  key = await server.createKey();
});
afterAll(() => server.close());

async function detail(slug: string): Promise<{ status: number; reviews?: number }> {
  const response = await server.request(`/api/v1/brokers/${slug}`, { key });
  if (response.status !== 200) return { status: response.status };
  const body = (await response.json()) as { data: { rating: { totalReviews: number } } };
  return { status: 200, reviews: body.data.rating.totalReviews };
}

test("brokers and reviews imported by the CLI show on the running server's API within a second", async () => {
  expect((await detail("maple-leaf-insurance-brokers")).status).toBe(404);
  const brokers = await runCli(["import", "brokers", join(REPO, "db/examples/brokers.csv"), "--quiet", ...databaseFlags(server)]);
  expect(brokers.code).toBe(1); // the example file's two refused rows
  expect(await eventually(async () => (await detail("maple-leaf-insurance-brokers")).status === 200, 1_000)).toBe(true);

  const reviews = await runCli(["import", "reviews", join(REPO, "db/examples/reviews.ndjson"), "--quiet", ...databaseFlags(server)]);
  expect(reviews.code).toBe(0);
  expect(await eventually(async () => (await detail("maple-leaf-insurance-brokers")).reviews === 3, 1_000)).toBe(true);
}, 30_000);
