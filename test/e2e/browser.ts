/**
 * Headless Chromium for the end-to-end tests: Debian's `chromium` package driven by
 * playwright-core (never a downloaded browser). If it cannot start, the error says so and
 * the test fails: a browser test that silently skips proves nothing.
 */
import childProcess from "node:child_process";
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * Chromium's child processes and their stdio streams, held for the life of the test process.
 * Playwright talks to Chromium over two extra pipes (stdio 3 and 4) of a `node:child_process`
 * child; under Bun 1.3, after a full garbage collection the pipes stop carrying messages unless
 * the child and its streams are referenced from here: the next `newContext` or `goto` waits
 * forever. Reproduced alone: launch, spawn 25 short commands with `Bun.gc(true)` every fifth,
 * then `newContext()` hangs in the second round; with these references held, six rounds of six
 * pass. In full test runs (a long-lived process, so real collections) it was a navigation that
 * never finished, then a test that hung until its timeout, and an afterAll whose `browser.close()`
 * never returned. They are kept after the browser closes too: released then, a closed browser's
 * streams, once collected, broke the pipes of the browser launched after it ("Target page,
 * context or browser has been closed" in the middle of the next test), as if their descriptors
 * were closed a second time after being reused. Bounded: one entry a launch, a few dozen a run.
 */
const heldForTheRun: unknown[][] = [];

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `No Chromium at ${CHROMIUM_PATH}. Install Debian's package (apt-get install -y chromium) or set CHROMIUM_PATH; ` +
        "the browser tests fail rather than skip.",
    );
  }
  const children: childProcess.ChildProcess[] = [];
  const spawn = childProcess.spawn;
  // Launches are sequential (bun test runs one file at a time, and a file's launches are awaited),
  // so the spawn seen while this one is pending is Chromium's. Its `stdio` is read only once the
  // launch is done: Bun makes those streams on first read, and read at once, before the child
  // had started, making them failed once with ENOENT.
  childProcess.spawn = ((...args: Parameters<typeof spawn>) => {
    const child = spawn(...args);
    children.push(child);
    return child;
  }) as typeof spawn;
  try {
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [
        "--no-sandbox",
        "--headless",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    });
    const spawned: unknown[] = children.flatMap((child) => [child, ...child.stdio]);
    heldForTheRun.push(spawned);
    return browser;
  } catch (error) {
    throw new Error(`Chromium at ${CHROMIUM_PATH} did not start: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    childProcess.spawn = spawn;
  }
}

/** How long closing a browser may take before the caller goes on without waiting (a closed pipe never answers). */
const CLOSE_MS = 10_000;

/** Closes a browser, given CLOSE_MS at most: an afterAll that waits on a browser that stopped answering times the file out. */
export async function closeBrowser(browser: Browser | undefined): Promise<void> {
  if (browser) await Promise.race([browser.close(), Bun.sleep(CLOSE_MS)]);
}
