/**
 * Export CSV: RFC 4180 with a UTF-8 byte-order mark, the inbox filters applied, formula-like
 * cells neutralised, only the caller's workspace, over REST and the console.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTRPCClient, httpLink } from "@trpc/client";
import superjson from "superjson";
import type { AppRouter } from "broker-directory";
import { EXPORT_PAGE_LEADS } from "../../src/router/leads/exportLeads.ts";
import { bulkLeadsSql } from "../support/bulkLeads.ts";
import { consoleRequest, signIn } from "../support/console.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
let key: string;

const lead = (body: Record<string, unknown>, as = key) =>
  server.request("/api/v1/leads", {
    key: as,
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: "x@example.ca", phone: "416 555 0199", insuranceType: "Auto", ...body }),
  });

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  key = await server.createKey({ workspace: "acme" });
  const other = await server.createKey({ workspace: "globex" });
  expect((await lead({ name: "François Côté", notes: 'Said "call me", then left, early' })).status).toBe(201);
  expect((await lead({ name: "=HYPERLINK(\"http://evil.example\")", notes: "+1 555\nsecond line" })).status).toBe(201);
  expect((await lead({ name: "@SUM(A1)", insuranceType: "Home", notes: "-2+3" })).status).toBe(201);
  expect((await lead({ name: "Other Workspace" }, other)).status).toBe(201);
});
afterAll(() => server.close());

/** RFC 4180 reader for the test's own check: quoted fields, doubled quotes, CRLF rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") row.push(field), (field = "");
    else if (c === "\r" && text[i + 1] === "\n") row.push(field), rows.push(row), (row = []), (field = ""), i++;
    else field += c;
  }
  return rows;
}

describe("GET /api/v1/leads.csv", () => {
  test("a UTF-8 CSV with a BOM, CRLF rows, a header, every field quoted, newest first", async () => {
    const response = await server.request("/api/v1/leads.csv", { key });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toStartWith("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="leads-\d{4}-\d{2}-\d{2}\.csv"$/);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes.slice(3));
    expect(text.endsWith("\r\n")).toBe(true);
    const rows = parseCsv(text);
    expect(rows[0]).toEqual(["id", "createdAt", "status", "name", "email", "phone", "insuranceType", "source", "brokerSlug", "quoteId", "notes"]);
    expect(rows).toHaveLength(4);
    expect(rows.map((r) => r[3])).toContain("François Côté");
    expect(rows.find((r) => r[3] === "François Côté")![10]).toBe('Said "call me", then left, early');
  });

  test("cells starting with = + - @ are neutralised with a leading apostrophe, the rest kept; an E.164 phone is kept as it is", async () => {
    const rows = parseCsv(new TextDecoder().decode((await (await server.request("/api/v1/leads.csv", { key })).arrayBuffer()).slice(3)));
    const byName = (start: string) => rows.find((r) => r[3]!.includes(start))!;
    expect(byName("HYPERLINK")[3]).toBe("'=HYPERLINK(\"http://evil.example\")");
    expect(byName("HYPERLINK")[10]).toBe("'+1 555\nsecond line");
    expect(byName("SUM")[3]).toBe("'@SUM(A1)");
    expect(byName("SUM")[10]).toBe("'-2+3");
    // E.164 starts with + but is no formula: every phone comes out as stored, quoted, without an apostrophe.
    for (const row of rows.slice(1)) expect(row[5]).toBe("+14165550199");
    for (const row of rows.slice(1)) for (const [i, cell] of row.entries()) if (i !== 5) expect(cell).not.toMatch(/^[=+\-@]/);
  });

  test("the inbox filters apply, and another workspace's leads never appear", async () => {
    const text = await (await server.request("/api/v1/leads.csv?insuranceType=home", { key })).text();
    const rows = parseCsv(text.replace(/^\uFEFF/, "")); // Response.text() drops the BOM already
    expect(rows.slice(1).map((r) => r[3])).toEqual(["'@SUM(A1)"]);
    expect(text).not.toContain("Other Workspace");
    expect((await server.request("/api/v1/leads.csv?status=maybe", { key })).status).toBe(422);
  });

  test("the console exports the same file for its session's workspace", async () => {
    const session = await signIn(server, "globex");
    const response = await consoleRequest(server, session, "/console/api/leads.csv");
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain("Other Workspace");
    expect(text).not.toContain("François");
  });

  test("needs leads:read", async () => {
    const writer = await server.createKey({ workspace: "acme", scopes: ["leads:write"] });
    expect((await server.request("/api/v1/leads.csv", { key: writer })).status).toBe(403);
  });
});

describe("an export longer than a page", () => {
  const LEADS = EXPORT_PAGE_LEADS * 2 + 500;
  let bigKey: string;
  beforeAll(async () => {
    bigKey = await server.createKey({ workspace: "initech", rateLimitPerMinute: 1_000 });
    await server.rows(bulkLeadsSql("initech", LEADS, 20, server.databaseUrl ? "postgres" : "sqlite"));
  });
  const ids = (text: string) => parseCsv(text.replace(/^\uFEFF/, "")).slice(1).map((row) => row[0]);
  const newestFirst = Array.from({ length: LEADS }, (_, i) => `ld_bulk_${LEADS - i}`);

  test("REST streams every page as one file (one header, every lead once, newest first), a unit per page", async () => {
    const response = await server.request("/api/v1/leads.csv", { key: bigKey });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text.match(/"id","createdAt"/g)).toHaveLength(1);
    expect(ids(text)).toEqual(newestFirst);
    // Admission paid page 1; pages 2 and 3 a unit each; the check below one more.
    const after = await server.request("/api/v1/leads?limit=1", { key: bigKey });
    expect(after.headers.get("ratelimit-remaining")).toBe(String(1_000 - 3 - 1));
  });

  test("HEAD answers the GET's status and headers with no body, and holds no download slot", async () => {
    // More HEADs than the key's download slots (DOWNLOADS_PER_KEY, 2): a HEAD that left its stream open would hold one forever.
    for (let i = 0; i < 3; i++) {
      const head = await server.request("/api/v1/leads.csv", { key: bigKey, method: "HEAD" });
      expect(head.status).toBe(200);
      expect(head.headers.get("content-type")).toStartWith("text/csv");
      expect(head.headers.get("content-disposition")).toStartWith("attachment;");
      expect(await head.text()).toBe("");
    }
    const get = await server.request("/api/v1/leads.csv", { key: bigKey });
    expect(get.status).toBe(200);
    expect(ids(await get.text())).toHaveLength(LEADS);
  });

  test("the console streams the same file for its session's workspace", async () => {
    const session = await signIn(server, "initech");
    const response = await consoleRequest(server, session, "/console/api/leads.csv?cursor=1.1");
    expect(response.status).toBe(200);
    expect(ids(await response.text())).toEqual(newestFirst); // a cursor in the URL is ignored: the file is whole
  });

  test("tRPC answers one page per call, with the cursor of the next", async () => {
    const trpc = createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${server.url}/trpc`, transformer: superjson, headers: { Authorization: `Bearer ${bigKey}` } })],
    });
    const pages: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await trpc.leads.export.query({ cursor });
      expect(page.rows).toBeLessThanOrEqual(EXPORT_PAGE_LEADS);
      expect(page.truncated).toBe(page.nextCursor !== null);
      pages.push(page.csv);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(pages).toHaveLength(3);
    expect(ids(pages.join(""))).toEqual(newestFirst);
    expect(await failure(trpc.leads.export.query({ cursor: "1e9.x" }))).toContain("nextCursor");
  });
});

async function failure(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error("expected the call to fail");
}
