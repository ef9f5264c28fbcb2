import { afterAll, beforeAll, expect, test } from "bun:test";
import { runCli, tempDir } from "./cliHarness.ts";

const tmp = tempDir();
const env = { DATABASE_PATH: tmp.path("keys.db") };
let created: { id: string; key: string; scopes: string[]; status: string };
beforeAll(async () => {
  const result = await runCli(["keys", "create", "--workspace", "acme", "--name", "ci", "--scopes", "brokers:read,reviews:read", "--json"], env);
  expect(result.code).toBe(0);
  created = JSON.parse(result.stdout);
});
afterAll(() => tmp.remove());

test("keys create --json prints the id and the key once", () => {
  expect(created.id).toBeString();
  expect(created.key).toMatch(/^brk_[A-Za-z0-9_-]{20,}$/);
  expect(created.scopes).toEqual(["brokers:read", "reviews:read"]);
  expect(created.status).toBe("active");
});

test("keys list never shows a full key, as text or JSON", async () => {
  const text = await runCli(["keys", "list"], env);
  const json = await runCli(["keys", "list", "--json"], env);
  expect(text.code).toBe(0);
  expect(json.code).toBe(0);
  for (const output of [text.stdout, json.stdout]) {
    expect(output).toContain(created.id);
    expect(output).not.toContain(created.key);
    expect(output).not.toContain(created.key.slice(0, 16));
  }
  const listed = JSON.parse(json.stdout) as { id: string; prefix: string; key?: string }[];
  const mine = listed.find((k) => k.id === created.id)!;
  expect(mine.key).toBeUndefined();
  expect(created.key.startsWith(mine.prefix)).toBe(true);
});

test("keys revoke marks the key revoked; an unknown id is a usage error", async () => {
  const other = JSON.parse((await runCli(["keys", "create", "--workspace", "acme", "--json"], env)).stdout) as { id: string };
  const revoked = await runCli(["keys", "revoke", other.id], env);
  expect(revoked.code).toBe(0);
  expect(revoked.stdout).toContain(`Revoked ${other.id}`);
  const listed = JSON.parse((await runCli(["keys", "list", "--json"], env)).stdout) as { id: string; status: string }[];
  expect(listed.find((k) => k.id === other.id)?.status).toBe("revoked");
  expect(listed.find((k) => k.id === created.id)?.status).toBe("active");

  const unknown = await runCli(["keys", "revoke", "key_does_not_exist"], env);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain('No key has the id "key_does_not_exist"');
});

test("several processes creating keys in one new workspace at once all succeed, in one workspace", async () => {
  const results = await Promise.all(
    Array.from({ length: 6 }, (_, i) => runCli(["keys", "create", "--workspace", "brand-new", "--name", `racer ${i}`, "--json"], env)),
  );
  expect(results.map((r) => ({ code: r.code, stderr: r.stderr }))).toEqual(results.map(() => ({ code: 0, stderr: "" })));
  const listed = JSON.parse((await runCli(["keys", "list", "--json"], env)).stdout) as { workspace: string; name: string }[];
  expect(listed.filter((k) => k.name.startsWith("racer ")).map((k) => k.workspace)).toEqual(Array(6).fill("brand-new"));
}, 30_000);
