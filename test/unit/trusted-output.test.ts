import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadDirectory } from "../../src/demo/loadDirectory.ts";
import { fsaCodes } from "../../src/domain/geo/fsaCentroids.ts";
import { createLogger } from "../../src/log.ts";
import { callProcedure, procedureFacts, procedurePaths, type ProcedurePath } from "../../src/router/procedureCatalog.ts";
import { appRouter } from "../../src/router/appRouter.ts";
import type { Context } from "../../src/router/trpc.ts";
import { createServices } from "../../src/services.ts";
import { closeDatabase, openDatabase } from "../../src/storage/sqlite/database.ts";
import { migrate } from "../../src/storage/sqlite/migrate.ts";

// Procedures marked trustedOutput skip tRPC's output check on REST and MCP (see Meta in
// src/router/trpc.ts). That is only sound while their answers are already exactly what the
// output schema makes of them: same fields, same order, nothing stripped, nothing coerced.
// Held here over a generated directory and every kind of search.
const dir = mkdtempSync(join(tmpdir(), "trusted-output-"));
const db = openDatabase(join(dir, "directory.db"));
migrate(db);
loadDirectory(db, { brokers: 400, reviewsPerBroker: 3, seed: 2026 });
const services = createServices(db, createLogger("silent"));
const ctx: Context = {
  services,
  principal: { keyId: "key_test", workspaceId: "ws_test", scopes: new Set(["brokers:read", "reviews:read"]), origins: null },
  surface: "rest",
  requestId: "req_test",
  baseUrl: "http://directory.test",
};
afterAll(() => {
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});

const FACETS = "province,city,insuranceType,language";
const WORDS = ["insurance", "assurance", "toronto", "montréal", "farm", "auto home", "group", "courtier", "zzzz-nothing", "  Maple  "];

/** Inputs for each trusted procedure: every order, filter, facet and page shape its answers take. */
const samples: Partial<Record<ProcedurePath, unknown[]>> = {
  "brokers.search": [
    {},
    { limit: "100" },
    { page: "99" },
    { province: "ON", facets: FACETS },
    { province: "QC", city: "Montréal", facets: FACETS },
    { insuranceType: "Auto", sort: "rating", facets: "insuranceType" },
    { sort: "reviews", page: "2" },
    ...WORDS.flatMap((q) => [{ q }, { q, sort: "relevance", facets: FACETS }, { q, page: "2", limit: "5" }]),
    ...fsaCodes().filter((_, i) => i % 80 === 0).flatMap((near) => [
      { near, radiusKm: "50", sort: "distance", facets: FACETS },
      { near, radiusKm: "500", facets: "province" },
    ]),
    { near: "43.65,-79.38", radiusKm: "25" },
    ...["fr", "English", "Punjabi"].flatMap((language) => [
      { language, minRating: "3.5", verified: "true", sort: "rating", facets: FACETS },
      { language, minRating: "0" },
    ]),
    { specialty: "Farm", facets: "language" },
    { verified: "false", sort: "reviews" },
  ],
};

// Every published broker's detail, and its reviews in every order and star filter (pages past the end included).
const published = db.$client.query<{ id: number; slug: string }, []>("SELECT id, slug FROM brokers WHERE published = 1 ORDER BY id").all();
samples["brokers.get"] = published.map(({ slug }) => ({ slug }));
samples["reviews.list"] = published.flatMap(({ id, slug }, i) => [
  { brokerId: String(id) },
  { slug, sort: (["oldest", "highest", "lowest", "newest"] as const)[i % 4], limit: "2" },
  { brokerId: String(id), rating: String(1 + (i % 5)) },
  { brokerId: String(id), page: "3", limit: "1" },
]);

const trusted = procedurePaths().filter((path) => {
  const meta = (appRouter._def.procedures as unknown as Record<string, { _def: { meta?: { trustedOutput?: true } } }>)[path]!._def.meta;
  return meta?.trustedOutput === true;
});

test("some procedure is trusted, and each trusted one has samples here", () => {
  expect(trusted).toEqual(expect.arrayContaining(["brokers.search", "brokers.get", "reviews.list"]));
  for (const path of trusted) expect(samples[path]?.length ?? 0).toBeGreaterThan(0);
});

for (const path of trusted) {
  test(`${path}: every answer is byte for byte what its output schema makes of it`, async () => {
    const output = procedureFacts(path).output;
    let nonEmpty = 0;
    for (const input of samples[path] ?? []) {
      const answer = await callProcedure(ctx, path, input);
      const asIs = JSON.stringify(answer);
      expect({ input, json: asIs }).toEqual({ input, json: JSON.stringify(output.parse(answer)) });
      if (asIs.includes('"id"')) nonEmpty++;
    }
    // The samples must reach real answers, not only empty pages.
    expect(nonEmpty).toBeGreaterThan((samples[path]?.length ?? 0) / 2);
  });
}

test("the comparison can fail: a field the schema does not know is stripped by the parse", async () => {
  const answer = (await callProcedure(ctx, "brokers.search", { limit: "1" })) as { data: object[] };
  const tampered = { ...answer, data: [{ ...answer.data[0], internalRank: 7 }] };
  const output = procedureFacts("brokers.search").output;
  expect(JSON.stringify(output.parse(tampered))).not.toBe(JSON.stringify(tampered));
});
