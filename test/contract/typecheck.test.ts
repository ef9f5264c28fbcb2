import { expect, test } from "bun:test";
import { join } from "node:path";

/**
 * The whole project type-checks: the tRPC client types in trpcTypes.ts, the widget's types
 * taken from the zod schemas, and the widget tests' fixtures typed with them. A renamed field
 * breaks one of these before it reaches anyone.
 */
test("tsc finds no type errors", () => {
  const root = join(import.meta.dir, "../..");
  const result = Bun.spawnSync([join(root, "node_modules/.bin/tsc"), "-p", root, "--pretty", "false"], { cwd: root });
  const output = `${result.stdout.toString()}${result.stderr.toString()}`;
  expect(output).toBe("");
  expect(result.exitCode).toBe(0);
}, 120_000);
