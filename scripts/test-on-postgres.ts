/**
 * Runs a command (by default the test suite) over PostgreSQL + Redis: starts a throwaway
 * PostgreSQL cluster and a redis-server on free loopback ports (test/support/postgres.ts and
 * redisServer.ts, as the tests themselves do), runs the command with TEST_DATABASE=postgres,
 * TEST_PG_URL and TEST_REDIS_URL, then stops both, whatever happened, and exits with the
 * command's status. `.ci/run` uses it for the suite's second run; by hand:
 *
 *   bun scripts/test-on-postgres.ts                      # the suite, less what runs the same on both (npm test)
 *   bun scripts/test-on-postgres.ts bun test test/http/auth.test.ts
 *
 * With TEST_PG_URL already set, that server is used (and left running).
 *
 * By default the files that run the same whatever the backend are left out (sameOnEveryBackend),
 * since the SQLite run has just run them: that is about a fifth of CI's time.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startPostgres } from "../test/support/postgres.ts";
import { startRedis } from "../test/support/redisServer.ts";

const command = process.argv.slice(2);
if (command[0] === "--") command.shift();
if (command.length === 0) command.push("npm", "test", "--", ...sameOnEveryBackend().map((file) => `--path-ignore-patterns=${file}`));

const postgres = await startPostgres();
const redis = await startRedis().catch(async (error) => {
  await postgres.stop();
  throw error;
});
let stopping: Promise<void> | undefined;
const stopServices = () => (stopping ??= Promise.all([postgres.stop(), redis.stop()]).then(() => {}));

const child = Bun.spawn(command, {
  stdio: ["inherit", "inherit", "inherit"],
  env: { ...process.env, TEST_DATABASE: "postgres", TEST_PG_URL: postgres.url, TEST_REDIS_URL: redis.url },
});
// Interrupted (Ctrl-C, CI's timeout): pass it on, and still stop the servers before leaving.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
const code = await child.exited;
await stopServices();
process.exit(code);

/**
 * Test files whose run does not depend on TEST_DATABASE:
 * - in test/unit, test/widget and test/binary, those that start no test server and never ask
 *   which backend runs (they test code, the widget or the built executable on their own);
 * - in test/pg, those that start their own PostgreSQL cluster whatever the run (they use the
 *   shared one when TEST_PG_URL is set, and test the same thing), all but those that ask.
 */
function sameOnEveryBackend(): string[] {
  const asks = /\bonPostgres\b|TEST_DATABASE|startTestServer|startServe|startConsoleServer/;
  const files = (dir: string) => readdirSync(dir).filter((f) => f.endsWith(".test.ts")).map((f) => join(dir, f));
  return ["test/unit", "test/widget", "test/binary", "test/pg"].flatMap(files).filter((file) => !asks.test(readFileSync(file, "utf8")));
}
