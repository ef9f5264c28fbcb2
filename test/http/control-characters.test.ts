/**
 * Issue 25 item 9: terminal escapes in names. The API refuses control characters (C0, DEL, C1,
 * bidi overrides and isolates) in every name and label it stores, naming the field (422); and
 * the CLI escapes them in what it prints, also for a name stored before the check existed.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { runCli } from "../cli/cliHarness.ts";
import { databaseFlags, startTestServer, type TestServer } from "../support/server.ts";

/** Erase the row, move up, an 8-bit CSI, an OSC 52 clipboard write, a right-to-left override, DEL. */
const HOSTILE = "\u001b[2K\u001b[1Aok\u009b2J\u001b]52;c;aGk=\u0007 \u202eevil\u2066 \u007f";
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

let server: TestServer;
let manager: string;

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  manager = await server.createKey({ workspace: "acme", scopes: ["keys:manage", "brokers:read", "leads:write"] });
});
afterAll(() => server.close());

const post = (path: string, body: unknown) =>
  server.request(path, { key: manager, method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

async function refusedField(response: Response): Promise<string> {
  expect(response.status).toBe(422);
  const body = (await response.json()) as { error: string; issues: { path: string; message: string }[] };
  expect(body.error).toBeString();
  return body.issues[0]!.path;
}

const lead = { name: "Ada Lovelace", email: "ada@example.ca", phone: "416 555 0199", insuranceType: "Auto" };

describe("the API refuses control characters in what it stores, naming the field (422)", () => {
  for (const [what, text] of [["escape sequences", HOSTILE], ["a line break", "two\nlines"], ["a bidi override", "abc\u202etxt.exe"], ["a C1 control", "a\u0085b"]]) {
    test(`a key name with ${what}`, async () => {
      expect(await refusedField(await post("/api/v1/keys", { name: text, scopes: ["brokers:read"] }))).toBe("name");
    });
  }

  test("a lead's name, and its notes (where line breaks and tabs are fine)", async () => {
    expect(await refusedField(await post("/api/v1/leads", { ...lead, name: `Ada${"\u2067"}` }))).toBe("name");
    expect(await refusedField(await post("/api/v1/leads", { ...lead, notes: `call ${HOSTILE}` }))).toBe("notes");
    expect((await post("/api/v1/leads", { ...lead, notes: "call after 5\n\tmornings are busy" })).status).toBe(201);
  });

  test("nothing refused was stored", async () => {
    const names = await server.rows<{ name: string }>("SELECT name FROM api_keys UNION ALL SELECT name FROM leads");
    expect(names.filter((r) => RAW_CONTROL.test(r.name))).toEqual([]);
  });
});

describe("the CLI shows stored control characters escaped, never raw", () => {
  test("keys list (text and JSON) of a name stored raw before the check: escaped, and the JSON reads back as stored", async () => {
    await server.createKey({ workspace: "acme", name: "placeholder" });
    await server.rows("UPDATE api_keys SET name = ? WHERE name = 'placeholder'", [HOSTILE]);
    const text = await runCli(["keys", "list", ...databaseFlags(server)]);
    expect(text.code).toBe(0);
    expect(text.stdout).not.toMatch(RAW_CONTROL);
    expect(text.stdout).toContain("\\u001b[2K\\u001b[1Aok\\u009b2J\\u001b]52;c;aGk=\\u0007 \\u202eevil\\u2066 \\u007f");
    const json = await runCli(["keys", "list", "--json", ...databaseFlags(server)]);
    expect(json.stdout).not.toMatch(RAW_CONTROL);
    expect((JSON.parse(json.stdout) as { name: string }[]).map((k) => k.name)).toContain(HOSTILE);
  }, 30_000);

  test("keys create and console-link refuse such a name or workspace (exit 2), and echo it escaped", async () => {
    const key = await runCli(["keys", "create", "--workspace", "acme", "--name", HOSTILE, ...databaseFlags(server)]);
    expect(key.code).toBe(2);
    expect(key.stderr).toContain("--name must be one line of text without control characters");
    expect(key.stderr).not.toMatch(RAW_CONTROL);
    const link = await runCli(["console-link", "--workspace", `acme${"\u202e"}`, ...databaseFlags(server)]);
    expect(link.code).toBe(2);
    expect(link.stderr).not.toMatch(RAW_CONTROL);
  }, 30_000);
});
