/**
 * Polls `check` until it holds or `ms` pass (default 2 s); answers whether it held. For changes
 * that arrive asynchronously (an announcement, a poll): never a wall-clock assertion.
 */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 2_000): Promise<boolean> {
  for (const started = performance.now(); performance.now() - started < ms; await Bun.sleep(20)) if (await check()) return true;
  return check();
}

/**
 * Runs `check` (which asserts) until it passes, for at most `ms` (default 1 s, the bound the
 * directory's write issue sets for every read surface); past it, the last failure is thrown.
 */
export async function passesWithin(check: () => Promise<void>, ms = 1_000): Promise<void> {
  const until = performance.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (performance.now() > until) throw error;
      await Bun.sleep(25);
    }
  }
}
