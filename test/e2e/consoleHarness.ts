/**
 * What every console browser test does the same way, written once: the server run as the
 * operator runs it (`serve` in a child process of its own, access lines kept out of its stdout),
 * keys and sign-in links made by the operator's CLI against the server's database, a console page
 * that records script errors and CSP violations, the 375 px overflow check, and a stop that cannot
 * hang the test file. The server logs at its default level: its access lines are what a failure
 * shows of the requests it got (startServe drains and bounds its output).
 *
 * Why a child process: run inside the test process, the server's listening socket was closed
 * mid-file in three clean-clone CI runs while its pooled connections still answered, each time
 * after the test process had spawned commands; a listener in a process that spawns nothing is out
 * of reach of whatever closed it, as in production.
 *
 * @example
 * const console = await startConsoleServer(folder.path("directory.db"));
 * const key = await console.cliKey(["--workspace", "acme", "--name", "crm"]);
 * await page.goto(await console.link("acme"));
 * await console.stop();
 */
import { expect } from "bun:test";
import { readFileSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { runCli, startServe, type ServedProcess } from "../cli/cliHarness.ts";
import { childExit } from "../support/childExit.ts";
import { closeBrowser, launchChromium } from "./browser.ts";
import { listenerState } from "./listenerState.ts";

/** How long a page waits for an element: generous, since CI runs these beside PostgreSQL on two cores. */
const PAGE_TIMEOUT_MS = 15_000;
/** How long a stopping server may take before it is killed (its own grace period is longer). */
const STOP_GRACE_MS = 15_000;

export interface ConsoleServer {
  readonly url: string;
  readonly served: ServedProcess;
  /** DATABASE_PATH naming the server's database, for any other CLI command the test runs. */
  readonly env: Record<string, string>;
  /** `keys create ARGS --json` by the operator's CLI; throws with its stderr when it fails. */
  cliKey(args: string[]): Promise<{ id: string; key: string; scopes: string[] }>;
  /** `console-link --workspace W --json`: a one-time sign-in link to this server. */
  link(workspace: string): Promise<string>;
  /** SIGTERM, then SIGKILL if the server has not exited within STOP_GRACE_MS. */
  stop(): Promise<void>;
}

/** Starts `serve` over `databasePath` (a PostgreSQL database for it with TEST_DATABASE=postgres), with extra flags and env. */
export async function startConsoleServer(databasePath: string, options: { flags?: string[]; env?: Record<string, string> } = {}): Promise<ConsoleServer> {
  const env = { DATABASE_PATH: databasePath };
  const served = await startServe(["--port", "0", "--host", "127.0.0.1", ...(options.flags ?? [])], {
    env: { ...env, ...options.env },
  });
  const cli = async (args: string[]) => {
    const result = await runCli([...args, "--json"], env);
    if (result.code !== 0) throw new Error(`${args.join(" ")} failed (${result.code}): ${result.stderr}`);
    return JSON.parse(result.stdout) as Record<string, unknown>;
  };
  return {
    url: served.url,
    served,
    env,
    cliKey: async (args) => (await cli(["keys", "create", ...args])) as { id: string; key: string; scopes: string[] },
    link: async (workspace) => (await cli(["console-link", "--workspace", workspace, "--url", served.url])).url as string,
    stop: () => stopServed(served),
  };
}

/** SIGTERM, then SIGKILL after STOP_GRACE_MS: an afterAll that waits on a server that will not exit times the file out. */
export async function stopServed(served: ServedProcess | undefined): Promise<void> {
  if (!served || served.proc.exitCode !== null || served.proc.signalCode !== null) return;
  served.proc.kill("SIGTERM");
  const stopped = await Promise.race([childExit(served.proc).then(() => true), Bun.sleep(STOP_GRACE_MS).then(() => false)]);
  if (stopped) return;
  console.error(`serve did not exit ${STOP_GRACE_MS} ms after SIGTERM; killed. Its signals: ${signalMasks(served.proc.pid)}. Its last output:\n${served.output().slice(-4_000)}`);
  served.proc.kill("SIGKILL");
  await childExit(served.proc);
}

/** The process's blocked, ignored and caught signal masks (Linux), to tell a signal never delivered from one not handled. */
function signalMasks(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/status`, "utf8")
      .split("\n")
      .filter((line) => /^(State|Threads|SigBlk|SigIgn|SigCgt|ShdPnd|SigPnd)/.test(line))
      .join("; ");
  } catch {
    return "(unknown)";
  }
}

/**
 * A console page that records script errors and CSP violations (a test expects none). The
 * browser's "Failed to load resource" lines are left out: a refused request the page shows (a
 * 422 beside a field, a 401 after sign-out, a 403 the test provokes) is an answer, not a fault.
 */
export async function consolePage(context: BrowserContext): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  page.setDefaultTimeout(PAGE_TIMEOUT_MS);
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (/Failed to load resource/.test(m.text())) return;
    if (m.type() === "error" || /Content Security Policy/i.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  return { page, problems };
}

/** The page's widest content against the viewport: at 375 px nothing may make the page scroll sideways. */
export async function expectNoOverflow(page: Page, width: number, where: string): Promise<void> {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect({ where, scrollWidth: scrollWidth <= width ? width : scrollWidth }).toEqual({ where, scrollWidth: width });
}

/**
 * A Chromium of the test's own, closed whatever happens (closeBrowser: given a bounded time, then left
 * to the file's end): a browser that stops answering its driver takes one test down, not the file's
 * later tests with it (a shared one did: one journey's navigation hung, the next test hung 90 s).
 */
export async function withOwnBrowser(run: (browser: Browser) => Promise<void>): Promise<void> {
  const browser = await launchChromium();
  try {
    await run(browser);
  } finally {
    await closeBrowser(browser);
  }
}

/**
 * Runs a journey and, when it fails, adds what the test process can see to the error: the
 * server's process state, whether its port still listens and answers, and its last output
 * (access lines included). A CI failure otherwise says only which wait timed out, not whether the
 * server or the browser stopped answering.
 */
export async function withServerOutput(server: ConsoleServer, journey: () => Promise<void>): Promise<void> {
  try {
    await journey();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const state = { process: signalMasks(server.served.proc.pid), ...(await listenerState(server.url)) };
    throw new Error(`${message}\n-- the server as the test process sees it: ${JSON.stringify(state)}\n-- its last output:\n${server.served.output().slice(-6_000) || "(nothing)"}`, { cause: error });
  }
}
