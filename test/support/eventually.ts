/**
 * Polls `check` until it holds or `ms` pass (default 2 s); answers whether it held. For changes
 * that arrive asynchronously (an announcement, a poll): never a wall-clock assertion.
 */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 2_000): Promise<boolean> {
  for (const started = performance.now(); performance.now() - started < ms; await Bun.sleep(20)) if (await check()) return true;
  return check();
}
