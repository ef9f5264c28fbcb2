/**
 * Headless Chromium for the end-to-end tests: Debian's `chromium` package driven by
 * playwright-core (never a downloaded browser). If it cannot start, the error says so and
 * the test fails: a browser test that silently skips proves nothing.
 */
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `No Chromium at ${CHROMIUM_PATH}. Install Debian's package (apt-get install -y chromium) or set CHROMIUM_PATH; ` +
        "the browser tests fail rather than skip.",
    );
  }
  try {
    return await chromium.launch({
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
  } catch (error) {
    throw new Error(`Chromium at ${CHROMIUM_PATH} did not start: ${error instanceof Error ? error.message : String(error)}`);
  }
}
