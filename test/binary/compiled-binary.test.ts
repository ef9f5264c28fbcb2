/**
 * The compiled executable on its own: built fresh, copied alone into an empty directory and
 * run with an environment that reaches neither Bun nor node_modules (PATH is an empty
 * directory, HOME is the temp dir), it serves every surface and runs every CLI command.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { childExit } from "../support/childExit.ts";

const REPO = join(import.meta.dir, "../..");

let tempDir: string;
/** Where the binary runs: its working directory, HOME, and where serve puts ./data. */
let root: string;
let binary: string;
let cleanEnv: Record<string, string>;
let widgetSource: string;
let server: { proc: Bun.Subprocess<"ignore", "pipe", "pipe">; url: string; demoKey: string };
let key: string;

/** Runs a CLI command of the binary to completion in the clean environment. */
function run(...args: string[]) {
  const result = Bun.spawnSync([binary, ...args], { cwd: root, env: cleanEnv, stdout: "pipe", stderr: "pipe" });
  return { code: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
}

/** Reads a child's stdout until `pattern` matches, returning the text read so far. */
async function readUntil(stream: ReadableStream<Uint8Array>, pattern: RegExp, timeoutMs: number): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const deadline = setTimeout(() => void reader.cancel(), timeoutMs);
  try {
    while (!pattern.test(text)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`output ended before ${pattern}:\n${text}`);
      text += decoder.decode(value, { stream: true });
    }
    return text;
  } finally {
    clearTimeout(deadline);
    reader.releaseLock();
  }
}

beforeAll(async () => {
  tempDir = mkdtempSync(join(tmpdir(), "broker-directory-binary-"));
  // The real build command, in its own process (Bun.build with bytecode misresolves
  // imports when called from inside the test runner).
  const builtBinary = join(tempDir, "build", "broker-directory");
  const build = Bun.spawnSync([process.execPath, join(REPO, "scripts/build.ts"), "--outfile", builtBinary], {
    cwd: REPO,
    stdout: "pipe",
    stderr: "pipe",
  });
  if (build.exitCode !== 0) throw new Error(`build failed:\n${build.stdout}${build.stderr}`);
  widgetSource = readFileSync(join(REPO, "dist/widget.js"), "utf8");

  // Alone in an empty directory: nothing beside it, no node_modules above it.
  root = join(tempDir, "run");
  mkdirSync(root);
  binary = join(root, "broker-directory");
  copyFileSync(builtBinary, binary);
  chmodSync(binary, 0o755);
  // The claim "no node_modules reachable" holds only if no ancestor of the run dir has one.
  for (let dir = root; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, "node_modules"))) throw new Error(`${dir}/node_modules is reachable from the run directory`);
  }
  // PATH names an empty directory: stricter than /usr/bin:/bin, where this machine has bun.
  const emptyPath = join(tempDir, "empty-path");
  mkdirSync(emptyPath);
  cleanEnv = { PATH: emptyPath, HOME: root, LANG: "C" };

  const proc = Bun.spawn([binary, "serve", "--port", "0", "--host", "127.0.0.1", "--log-level", "warn"], {
    cwd: root,
    env: cleanEnv,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const output = await readUntil(proc.stdout, /listening on (http:\/\/\S+)/, 15_000);
  const url = output.match(/listening on (http:\/\/\S+)/)?.[1];
  const demoKey = output.match(/\b(brk_[A-Za-z0-9_-]+)/)?.[1];
  if (!url || !demoKey) throw new Error(`unexpected serve output:\n${output}`);
  server = { proc, url, demoKey };
  const created = run("keys", "create", "--workspace", "binary-test", "--json");
  expect(created.code).toBe(0);
  key = JSON.parse(created.stdout).key;
}, 120_000);

afterAll(async () => {
  if (server) {
    server.proc.kill("SIGTERM");
    await childExit(server.proc);
  }
  if (tempDir) rmSync(tempDir, { recursive: true, force: true });
});

describe("the compiled executable, copied alone", () => {
  test("--help prints the commands and exits 0", () => {
    const { code, stdout } = run("--help");
    expect(code).toBe(0);
    for (const command of ["serve", "migrate", "seed", "keys"]) expect(stdout).toContain(command);
  });

  test("serve created its database beside it under ./data", () => {
    expect(statSync(join(root, "data", "broker-directory.db")).size).toBeGreaterThan(0);
  });

  test("GET /healthz answers ok", async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: "ok" });
  });

  test("REST search returns Ontario brokers from the demo directory", async () => {
    const response = await fetch(`${server.url}/api/v1/brokers?province=ON&limit=5`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.data.length).toBeGreaterThan(0);
    expect(body.data.length).toBeLessThanOrEqual(5);
    for (const broker of body.data) expect(JSON.stringify(broker)).toContain("ON");
  });

  test("REST refuses a request without a key", async () => {
    const response = await fetch(`${server.url}/api/v1/brokers`);
    expect(response.status).toBe(401);
    expect(typeof (await response.json()).error).toBe("string");
  });

  test("the demo key printed at first start works", async () => {
    const response = await fetch(`${server.url}/api/v1/brokers?limit=1`, {
      headers: { Authorization: `Bearer ${server.demoKey}` },
    });
    expect(response.status).toBe(200);
  });

  test("MCP initialize and tools/list answer over JSON-RPC", async () => {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${key}`,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
    };
    const init = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "binary-test", version: "1.0.0" } },
      }),
    });
    expect(init.status).toBe(200);
    const initialized = await jsonRpcMessage(init);
    expect(initialized).toMatchObject({ jsonrpc: "2.0", id: 0, result: { serverInfo: { name: expect.any(String) } } });

    const session = init.headers.get("Mcp-Session-Id");
    const list = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: {
        ...headers,
        "MCP-Protocol-Version": initialized.result.protocolVersion,
        ...(session ? { "Mcp-Session-Id": session } : {}),
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(list.status).toBe(200);
    const tools = (await jsonRpcMessage(list)).result.tools.map((t: { name: string }) => t.name);
    expect(tools).toContain("search_brokers");
  });

  test("GET /widget.js serves the bundle embedded at build time", async () => {
    const response = await fetch(`${server.url}/widget.js`, { headers: { "Accept-Encoding": "identity" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("javascript");
    expect(await response.text()).toBe(widgetSource);
  });

  test("GET /console/console.js serves the console bundle embedded at build time, not the widget's", async () => {
    const response = await fetch(`${server.url}/console/console.js`, { headers: { "Accept-Encoding": "identity" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("javascript");
    const code = await response.text();
    expect(code).toBe(readFileSync(join(REPO, "dist/console.js"), "utf8"));
    expect(code).not.toBe(widgetSource);
  });

  test("the manual is embedded: every page is served by the executable alone, from its own Markdown", async () => {
    // The executable runs in an empty directory with no source tree: these come from its bundle.
    for (const page of ["api", "mcp", "widget", "console", "operations", "scaling-out", "security", "performance", "changelog"]) {
      const response = await fetch(`${server.url}/docs/manual/${page}`);
      expect({ page, status: response.status }).toEqual({ page, status: 200 });
      const markdown = readFileSync(join(REPO, `src/adapters/docs/manual/${page}.md`), "utf8");
      const title = markdown.split("\n").find((line) => line.startsWith("# "))!.slice(2).replaceAll("`", "");
      expect(await response.text()).toContain(`<title>${title}</title>`);
    }
    const api = await (await fetch(`${server.url}/docs/manual/api`)).text();
    expect(api).toContain("<code>brokers.search</code>"); // the capability table, filled in by the server
  });

  test("GET /demo serves the demo page that loads the widget", async () => {
    const response = await fetch(`${server.url}/demo?key=${encodeURIComponent(server.demoKey)}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("text/html");
    expect(await response.text()).toContain("/widget.js");
  });

  test("keys list --json shows the demo and the created keys without their secrets", () => {
    const { code, stdout } = run("keys", "list", "--json");
    expect(code).toBe(0);
    const workspaces = new Set(JSON.parse(stdout).map((k: { workspace: string }) => k.workspace));
    expect(workspaces).toEqual(new Set(["binary-test", "demo"]));
    expect(stdout).not.toContain(key);
    expect(stdout).not.toContain(server.demoKey);
  });

  test("keys revoke takes effect on the running server", async () => {
    const created = JSON.parse(run("keys", "create", "--workspace", "binary-test", "--name", "short-lived", "--json").stdout);
    const revoked = run("keys", "revoke", created.id);
    expect(revoked.code).toBe(0);
    const response = await fetch(`${server.url}/api/v1/brokers?limit=1`, { headers: { Authorization: `Bearer ${created.key}` } });
    expect(response.status).toBe(401);
  });

  test("the checkpointer's worker thread, bundled as an entrypoint of its own, runs (Linux: a thread named Worker)", async () => {
    const threads = () =>
      readdirSync(`/proc/${server.proc.pid}/task`).map((task) => readFileSync(`/proc/${server.proc.pid}/task/${task}/comm`, "utf8").trim());
    // A script the executable cannot find fails at once, and its thread ends: still there a second later means it runs.
    await Bun.sleep(1_000);
    expect(threads()).toContain("Worker");
  });

  test("a bad flag exits 2 with a message, not a stack", () => {
    const { code, stderr } = run("keys", "create", "--workspace", "x", "--rate-limit", "lots");
    expect(code).toBe(2);
    expect(stderr).toContain("--rate-limit must be a whole number");
    expect(stderr).not.toContain("    at ");
  });

  test("migrate and seed work on a database of their own", () => {
    const db = join(root, "other", "seeded.db");
    const migrated = run("migrate", "--db", db);
    expect(migrated.code).toBe(0);
    expect(migrated.stdout).toContain("Applied");
    const seeded = run("seed", "--brokers", "25", "--reviews-per-broker", "2", "--db", db);
    expect(seeded.code).toBe(0);
    expect(seeded.stdout).toContain("25 brokers");
  });

  test("backup copies the live database while it serves", () => {
    const target = join(root, "backups", "copy.db");
    mkdirSync(join(root, "backups"));
    const { code, stdout, stderr } = run("backup", target);
    expect({ code, stderr }).toEqual({ code: 0, stderr: expect.any(String) });
    expect(stdout.length).toBeGreaterThan(0);
    expect(existsSync(target)).toBe(true);
    expect(statSync(target).size).toBeGreaterThan(0);
  });
});

/** The JSON-RPC message of an MCP response, whether sent as JSON or as one SSE event. */
async function jsonRpcMessage(response: Response) {
  const text = await response.text();
  if (response.headers.get("Content-Type")?.includes("text/event-stream")) {
    const data = text.split("\n").find((line) => line.startsWith("data:"));
    if (!data) throw new Error(`no data line in the event stream:\n${text}`);
    return JSON.parse(data.slice(5));
  }
  return JSON.parse(text);
}
