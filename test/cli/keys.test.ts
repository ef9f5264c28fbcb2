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

test("an embed key made without --scopes gets the embed defaults: never leads:read, as the console shows it", async () => {
  const made = await runCli(["keys", "create", "--workspace", "widgets", "--origins", "https://blog.example"], env);
  expect(made.code).toBe(0);
  expect(made.stdout).toContain("(brokers:read reviews:read quotes:write leads:write)");
  expect(made.stdout).not.toContain("leads:read");
  const asked = await runCli(["keys", "create", "--workspace", "widgets", "--origins", "https://blog.example", "--scopes", "brokers:read,leads:read"], env);
  expect(asked.code).toBe(2);
  expect(asked.stderr).toContain("remove leads:read");
});

test("keys list has a header row and --workspace shows one workspace's keys", async () => {
  await runCli(["keys", "create", "--workspace", "only-me", "--name", "lonely"], env);
  const all = await runCli(["keys", "list"], env);
  expect(all.stdout.split("\n")[0]).toMatch(/^ID\s+WORKSPACE\s+NAME\s+PREFIX\s+STATUS\s+SCOPES\s+RATE\s+ORIGINS$/);
  const mine = await runCli(["keys", "list", "--workspace", "only-me"], env);
  const lines = mine.stdout.trim().split("\n");
  expect(lines).toHaveLength(2);
  expect(lines[1]).toMatch(/^key_\w+\s+only-me\s+lonely\s+brk_[\w-]+…\s+active\s+brokers:read,reviews:read,quotes:write,leads:write,leads:read\s+100\/min\s+-$/);
  const json = JSON.parse((await runCli(["keys", "list", "--workspace", "only-me", "--json"], env)).stdout) as { workspace: string }[];
  expect(json.map((k) => k.workspace)).toEqual(["only-me"]);
  expect((await runCli(["keys", "list", "--workspace", "nobody"], env)).stdout).toContain('No keys in workspace "nobody"');
});

test("keys roll prints the new key once; the old one keeps its grace or stops now; a key rolls once", async () => {
  const old = JSON.parse((await runCli(["keys", "create", "--workspace", "rollers", "--name", "to roll", "--rate-limit", "7", "--json"], env)).stdout) as { id: string; key: string };
  const rolled = await runCli(["keys", "roll", old.id, "--json"], env);
  expect(rolled.code).toBe(0);
  const answer = JSON.parse(rolled.stdout) as { id: string; key: string; name: string; rateLimitPerMinute: number; previous: { id: string; status: string; expiresAt: string } };
  expect(answer.key).toMatch(/^brk_[A-Za-z0-9_-]{43}$/);
  expect(answer).toMatchObject({ name: "to roll", rateLimitPerMinute: 7, previous: { id: old.id, status: "active" } });
  expect(Date.parse(answer.previous.expiresAt) - Date.now()).toBeGreaterThan(23 * 3_600_000); // 24h grace by default
  const again = await runCli(["keys", "roll", old.id], env);
  expect(again.code).not.toBe(0);
  expect(again.stderr).toContain(`by ${answer.id}`);

  const now = await runCli(["keys", "roll", answer.id, "--grace", "now"], env);
  expect(now.code).toBe(0);
  expect(now.stdout).toMatch(/^Rolled key_\w+ into key_\w+ in workspace rollers; the old key was revoked now\.\nKey \(shown once, store it now\): brk_/);
  const listed = JSON.parse((await runCli(["keys", "list", "--workspace", "rollers", "--json"], env)).stdout) as { id: string; status: string }[];
  expect(listed.find((k) => k.id === answer.id)?.status).toBe("revoked");

  expect((await runCli(["keys", "roll", answer.id, "--grace", "2d"], env)).stderr).toContain("--grace must be one of now, 1h, 24h, 7d");
  expect((await runCli(["keys", "roll", "key_nope"], env)).stderr).toContain('No key has the id "key_nope"');
}, 30_000);
