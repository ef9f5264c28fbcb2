import { afterAll, expect, test } from "bun:test";
import { hashSecret } from "../../src/auth/consoleSecrets.ts";
import { openDatabase } from "../../src/storage/sqlite/database.ts";
import { runCli, tempDir } from "./cliHarness.ts";
import { sqliteOnly } from "../support/testDatabase.ts";

const temp = tempDir();
afterAll(() => temp.remove());

// SQLite only: reads the stored token hash from the SQLite file.
sqliteOnly("console-link prints a one-time link for a new workspace, storing only the token's hash", async () => {
  const db = temp.path("links.db");
  const result = await runCli(["console-link", "--workspace", "Blog Équipe", "--json", "--db", db], { PUBLIC_URL: "https://brokers.example.ca/" });
  expect(result.code).toBe(0);
  const printed = JSON.parse(result.stdout) as { url: string; workspace: string; expiresAt: string };
  expect(printed.workspace).toBe("Blog Équipe");
  expect(printed.url).toMatch(/^https:\/\/brokers\.example\.ca\/console\/sign-in\?token=[A-Za-z0-9_-]{43}$/);
  const token = new URL(printed.url).searchParams.get("token")!;
  const minutes = (Date.parse(printed.expiresAt) - Date.now()) / 60_000;
  expect(minutes).toBeGreaterThan(14);
  expect(minutes).toBeLessThanOrEqual(15);
  const stored = openDatabase(db).$client.query<{ token_hash: string }, []>("SELECT token_hash FROM console_links").all();
  expect(stored).toEqual([{ token_hash: hashSecret(token) }]);
});

test("without --json it prints the link for a person; --url overrides PUBLIC_URL", async () => {
  const result = await runCli(["console-link", "--workspace", "acme", "--url", "http://localhost:8080", "--db", temp.path("plain.db")]);
  expect(result.code).toBe(0);
  expect(result.stdout).toMatch(/works once/);
  expect(result.stdout).toMatch(/http:\/\/localhost:8080\/console\/sign-in\?token=/);
});

test("mistakes exit 2 with a message: no workspace, a bad URL, ending sessions of an unknown workspace", async () => {
  for (const args of [["console-link"], ["console-link", "--workspace", "a", "--url", "ftp://x"], ["console-link", "--workspace", "nobody", "--end-sessions"]]) {
    const result = await runCli([...args, "--db", temp.path("errors.db")]);
    expect(result.code).toBe(2);
    expect(result.stderr).toStartWith("Error: ");
  }
});
