import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ImportFileResult } from "../../src/router/directory/directoryImportFile.ts";
import { sendInParts, type ImportFileRequest } from "../../widget/console/importParts.ts";
import { consoleRequest, signIn } from "../support/console.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

/**
 * directory.importFile (issue 27 section 4): a CSV or NDJSON file sent whole or in parts (the
 * console's Import page) is read by the import's engine with the file's own line numbers; the
 * parts are cut by the console's own splitter (widget/console/importParts.ts) at any line, and
 * a record a part may cut (a broker's later offices, a quoted line break) moves to the next part.
 */

const EXAMPLE = readFileSync(join(import.meta.dir, "../../db/examples/brokers.csv"), "utf8");
const REVIEWS = readFileSync(join(import.meta.dir, "../../db/examples/reviews.ndjson"), "utf8");
/** The example's two deliberately bad rows, as the CLI reports them. */
const BAD_ROWS = [
  { line: 24, field: "postalCode", message: '"M5V 3L9" is in Ontario, the row says QC' },
  { line: 26, field: "teamSize", message: 'must be one of 1-10, 11-50, 51-200, 201-500, 500+ (got "10-50")' },
];

let server: TestServer;
let editor: string;
let partner: string;

beforeAll(async () => {
  server = await startTestServer();
  editor = (await server.app.services.keys.create({ workspace: "operator", scopes: ["directory:write"], rateLimitPerMinute: 1_000_000 }, Date.now())).key;
  partner = await server.createKey({ workspace: "partner", rateLimitPerMinute: 1_000_000 });
});
afterAll(() => server.close());

async function importFile(body: Partial<ImportFileRequest>, key = editor): Promise<Response> {
  return server.request("/api/v1/directory/import-file", { key, method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
}
const send = async (request: ImportFileRequest): Promise<ImportFileResult> => {
  const res = await importFile(request);
  const body = (await res.json()) as { data: ImportFileResult };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.data;
};

describe("directory.importFile", () => {
  test("the example CSV whole, as a dry run: the CLI's counts and its two bad rows with their lines, nothing written", async () => {
    const answer = await send({ kind: "brokers", name: "brokers.csv", text: EXAMPLE, startLine: 2, final: true, dryRun: true });
    expect(answer).toEqual({ summary: { created: 18, updated: 0, unchanged: 0, failed: 2 }, errors: BAD_ROWS, nextLine: null });
    const listed = (await (await server.request("/api/v1/directory/brokers?externalId=CRM-1001", { key: editor })).json()) as { data: unknown[] };
    expect(listed.data).toEqual([]);
  });

  test("in parts of any size the file reads the same: multi-office brokers and quoted line breaks are never cut", async () => {
    for (const partBytes of [300, 700, 2_000]) {
      let parts = 0;
      const totals = await sendInParts({ name: "brokers.csv", text: EXAMPLE }, { kind: "brokers", dryRun: true, partBytes }, (request) => (parts++, send(request)));
      expect({ partBytes, totals }).toEqual({ partBytes, totals: { created: 18, updated: 0, unchanged: 0, failed: 2, errors: BAD_ROWS } });
      expect(parts).toBeGreaterThan(2);
    }
  });

  test("confirmed, it writes; the same file again is unchanged; reviews in NDJSON follow", async () => {
    const progress: number[] = [];
    const first = await sendInParts({ name: "brokers.csv", text: EXAMPLE }, { kind: "brokers", dryRun: false, partBytes: 2_000 }, send, (done) => progress.push(done));
    expect({ created: first.created, failed: first.failed }).toEqual({ created: 18, failed: 2 });
    expect(progress.at(-1)).toBe(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    const again = await sendInParts({ name: "brokers.csv", text: EXAMPLE }, { kind: "brokers", dryRun: false }, send);
    expect({ unchanged: again.unchanged, created: again.created, updated: again.updated }).toEqual({ unchanged: 18, created: 0, updated: 0 });
    const reviews = await sendInParts({ name: "reviews.ndjson", text: REVIEWS }, { kind: "reviews", dryRun: false, partBytes: 1_000 }, send);
    expect(reviews.created + reviews.failed).toBe(REVIEWS.trim().split("\n").length);
    expect(reviews.created).toBeGreaterThan(0);
  });

  test("a file that is not one the import reads is a 422 naming `text`; a partner's key is refused 403", async () => {
    const res = await importFile({ kind: "brokers", name: "brokers.csv", text: '{"name":"x"}\n' });
    const body = (await res.json()) as { code: string; issues: { path: string; message: string }[] };
    expect(res.status).toBe(422);
    expect(body.issues[0]!.path).toBe("text");
    const refused = await importFile({ kind: "brokers", text: EXAMPLE.slice(0, 1_000), dryRun: true }, partner);
    expect(refused.status).toBe(403);
  });

  test("a partner's console session is refused 403 on the upload; the operator's session imports", async () => {
    const part = { kind: "brokers", name: "brokers.csv", text: EXAMPLE, dryRun: true };
    const partnerSession = await signIn(server, "partner");
    const refused = await consoleRequest(server, partnerSession, "/console/api/directory/import-file", { method: "POST", body: part });
    expect(refused.status).toBe(403);
    const operatorSession = await signIn(server, "operator");
    const done = await consoleRequest(server, operatorSession, "/console/api/directory/import-file", { method: "POST", body: part });
    expect(done.status).toBe(200);
  });
});
