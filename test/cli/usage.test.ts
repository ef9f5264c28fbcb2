import { expect, test } from "bun:test";
import { SETTINGS } from "../../src/config.ts";
import { runCli } from "./cliHarness.ts";

test.each(["serve", "migrate", "seed", "import", "export", "keys", "backup", "restore"])("%s --help prints its usage and exits 0", async (command) => {
  const result = await runCli([command, "--help"]);
  expect(result.code).toBe(0);
  expect(result.stdout).toContain("Usage");
  expect(result.stdout).toContain(command);
  expect(result.stderr).toBe("");
});

test("the top-level help lists every command; no command at all is a usage error", async () => {
  const help = await runCli(["--help"]);
  expect(help.code).toBe(0);
  for (const command of ["serve", "migrate", "seed", "import", "export", "keys", "backup", "restore"]) expect(help.stdout).toContain(`  ${command} `);
  expect((await runCli([])).code).toBe(2);
});

test("serve --help lists every setting with its flag and environment variable", async () => {
  const { stdout } = await runCli(["serve", "--help"]);
  for (const setting of Object.values(SETTINGS)) {
    if (setting.flag) expect(stdout).toContain(`--${setting.flag}`);
    if (setting.env) expect(stdout).toContain(setting.env);
  }
});

test.each([
  [["frobnicate"], 'Unknown command "frobnicate"'],
  [["constructor"], 'Unknown command "constructor"'],
  [["__proto__"], 'Unknown command "__proto__"'],
  [["serve", "--bogus"], "Unknown option '--bogus'"],
  [["serve", "--port", "abc"], "PORT / --port must be a number"],
  [["serve", "--port", "70000"], "PORT / --port must be 0 to 65535"],
  [["serve", "--downloads-per-key", "0"], "DOWNLOADS_PER_KEY / --downloads-per-key must be 1 to 100"],
  [["serve", "--log-level", "loud"], "LOG_LEVEL / --log-level must be one of debug, info, warn, error, silent"],
  [["serve", "--public-url", "brokers.example.ca"], "PUBLIC_URL / --public-url must be an http(s) URL"],
  [["serve", "--shutdown-grace", "500"], "SHUTDOWN_GRACE_SECONDS / --shutdown-grace must be 0 to 300"],
  [["serve", "--redis-url", "http://cache.internal:6379"], "REDIS_URL / --redis-url must be a redis://, rediss://, valkey:// or valkeys:// URL"],
  [["serve", "--drain", "soon"], "DRAIN_SECONDS / --drain must be a number of seconds"],
  [["serve", "--memory-target=-5"], "MEMORY_TARGET_MB / --memory-target must be 0 to 1048576"],
  [["serve", "--memory-target", "1.5"], "MEMORY_TARGET_MB / --memory-target must be a whole number"],
  [["migrate", "--nope"], "Unknown option '--nope'"],
  [["seed", "--brokers", "0"], "--brokers must be a whole number from 1 to 1,000,000"],
  [["seed", "--seed", "x"], "--seed must be a whole number"],
  [["keys", "create"], "--workspace NAME is required."],
  [["keys", "create", "--workspace", "w", "--scopes", "brokers:write"], "Unknown scope brokers:write"],
  [["keys", "create", "--workspace", "w", "--expires-in", "soon"], "--expires-in must look like 90m"],
  [["keys", "create", "--workspace", "w", "--origins", "partner.example/path"], "is not an origin"],
  [["keys", "shred"], 'Unknown keys command "shred"'],
  [["keys", "revoke"], "Name exactly one key id"],
  [["backup"], "Name exactly one backup file"],
  [["restore", "a", "b"], "Name exactly one backup file"],
])("%p is refused with exit 2 and says what to fix", async (args, message) => {
  const result = await runCli(args as string[], { DATABASE_PATH: "/nonexistent-dir-for-cli-tests/never.db" });
  expect(result.code).toBe(2);
  expect(result.stderr).toContain(message);
  expect(result.stderr).not.toContain("    at "); // no stack trace
});

// Every command reads --db / DATABASE_PATH through src/config.ts, as serve does: an empty --db
// is refused in serve's words (it used to reach the file system as "Cannot open the database").
test.each([
  [["migrate", "--db", ""]],
  [["seed", "--db", ""]],
  [["backup", "copy.db", "--db", ""]],
  [["restore", "copy.db", "--db", ""]],
  [["keys", "list", "--db", ""]],
])("%p reads --db as serve does: an empty path is refused with exit 2", async (args) => {
  const result = await runCli(args as string[]);
  expect(result.stderr).toContain("DATABASE_PATH / --db must not be empty");
  expect(result.code).toBe(2);
});

test.each([
  ["PORT=99999", "PORT / --port must be 0 to 65535"],
  ["LOG_LEVEL=verbose", "LOG_LEVEL / --log-level must be one of"],
  ["DEMO=maybe", "DEMO must be true or false"],
  ["METRICS_TOKEN=short", "METRICS_TOKEN must be at least 16 characters"],
  ["PUBLIC_URL=ftp://x", "PUBLIC_URL / --public-url must be an http(s) URL"],
  ["MEMORY_TARGET_MB=lots", "MEMORY_TARGET_MB / --memory-target must be a number"],
])("an invalid environment setting %s stops serve with exit 2", async (assignment, message) => {
  const [name, value] = assignment.split(/=(.*)/s) as [string, string];
  const result = await runCli(["serve"], { [name]: value, DATABASE_PATH: "/nonexistent-dir-for-cli-tests/never.db" });
  expect(result.code).toBe(2);
  expect(result.stderr).toContain(message);
});
