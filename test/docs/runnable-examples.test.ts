import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../support/server.ts";
import { documents, ROOT, runnableBlocks, type RunnableBlock } from "./runnableBlocks.ts";
import { childExit } from "../support/childExit.ts";

/**
 * Every ```sh runnable block of the README and the manual, run in bash (set -e, pipefail)
 * against a real server with the demo directory. The placeholders the blocks use (README,
 * "Runnable examples"): localhost:3000 is this server, KEY a key with the five default scopes,
 * EMBED_KEY an embed key for https://www.acme.ca, ADMIN a key of the same workspace with every
 * scope, `bun src/main.ts` the CLI on this server's database, `db/examples/` the example import files. A .curlrc makes every curl fail on
 * an HTTP error status, so a recipe that answers 4xx fails here.
 *
 * A few seconds: the blocks that run the CLI start a Bun process each (about 0.5 s apiece).
 */
let server: TestServer;
let work: string;
let env: Record<string, string>;
let blocks: RunnableBlock[];

beforeAll(async () => {
  server = await startTestServer();
  work = mkdtempSync(join(tmpdir(), "broker-directory-runnable-"));
  writeFileSync(join(work, ".curlrc"), "fail-with-body\nsilent\nshow-error\n");
  const workspace = "acme";
  env = {
    PATH: `${join(ROOT, "node_modules/.bin")}:${process.env.PATH ?? ""}`,
    HOME: work,
    CURL_HOME: work,
    KEY: await server.createKey({ workspace }),
    EMBED_KEY: await server.createKey({ workspace, origins: ["https://www.acme.ca"], scopes: ["brokers:read", "reviews:read", "quotes:write", "leads:write"] }),
    ADMIN: await server.createKey({ workspace, scopes: ["brokers:read", "reviews:read", "quotes:write", "leads:write", "leads:read", "keys:manage"] }),
    DATABASE_PATH: server.databasePath,
    ...(server.databaseUrl ? { DATABASE_URL: server.databaseUrl } : {}),
    LOG_LEVEL: "warn",
  };
  blocks = (await documents()).flatMap(([path, text]) => runnableBlocks(path, text));
});
afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

test("the README marks its curl recipes runnable, and the manual marks its own", () => {
  const readme = blocks.filter((b) => b.where.startsWith("README.md"));
  expect(readme.filter((b) => b.script.includes("curl")).length).toBeGreaterThanOrEqual(2);
  expect(blocks.filter((b) => !b.where.startsWith("README.md")).length).toBeGreaterThanOrEqual(5);
});

test("every runnable block runs without an error against a real server", async () => {
  const host = new URL(server.url).host;
  const failures: string[] = [];
  for (const block of blocks) {
    const script = block.script
      .replaceAll("localhost:3000", host)
      .replaceAll("bun src/main.ts", `bun ${join(ROOT, "src/main.ts")}`)
      .replaceAll(" db/examples/", ` ${join(ROOT, "db/examples")}/`);
    const run = Bun.spawn(["bash", "-e", "-o", "pipefail", "-c", script], { cwd: work, env, stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), childExit(run)]);
    if (code !== 0) failures.push(`${block.where} exited ${code}\n${err.slice(-800)}\n${out.slice(-800)}`);
  }
  expect(failures).toEqual([]);
}, 60_000);
