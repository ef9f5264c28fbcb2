/**
 * The browser harness survives full garbage collections (test/e2e/browser.ts says why it holds
 * Chromium's child process and pipes): without those references, a Chromium launched by
 * playwright-core under Bun stops answering after `Bun.gc(true)`, and this test's second round
 * waits for `newContext` until its own deadline.
 */
import { expect, test } from "bun:test";
import { launchChromium } from "./browser.ts";

/** How long a context, a page and about:blank may take on a slow machine before the browser counts as hung. */
const ANSWER_MS = 10_000;

test("a launched Chromium still answers after commands were spawned and memory fully collected", async () => {
  for (let round = 0; round < 3; round++) {
    const browser = await launchChromium();
    try {
      for (let i = 0; i < 25; i++) {
        await Bun.spawn(["true"], { stdin: "ignore", stdout: "ignore", stderr: "ignore" }).exited;
        if (i % 5 === 0) Bun.gc(true);
      }
      const answered = await Promise.race([
        (async () => {
          const context = await browser.newContext();
          const page = await context.newPage();
          await page.goto("about:blank");
          await context.close();
          return "answered";
        })(),
        Bun.sleep(ANSWER_MS).then(() => "hung"),
      ]);
      expect({ round, answered }).toEqual({ round, answered: "answered" });
    } finally {
      await Promise.race([browser.close(), Bun.sleep(5_000)]);
    }
  }
}, 90_000);
