/**
 * Bundles widget/ (Lit included) into one minified file, dist/widget.js; and the workspace
 * console (widget/console/) into another, dist/console.js, that partner pages never load.
 *
 * Format: an IIFE. It has no top-level import/export and declares nothing global, so the
 * same file runs as a classic `<script async>` (what partners paste) and as a module script.
 * A plain ESM bundle would leak its minified top-level names into the page's global scope
 * when loaded classically, and one with `export` would not load classically at all.
 *
 * Budget: 30 KB gzipped. `bun scripts/build-widget.ts` writes the file and prints the sizes;
 * the server and the binary build call buildWidget() to serve the code from memory.
 */
import { gzipSync } from "bun";
import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";

const ROOT = join(import.meta.dir, "..");
export const WIDGET_BUDGET_GZIP_BYTES = 30 * 1024;

/** The console's bundle (widget/console/, with uPlot): loaded only by /console pages, so a larger budget. */
export const CONSOLE_BUDGET_GZIP_BYTES = 80 * 1024;

export function buildWidget(): Promise<{ code: string; gzipBytes: number }> {
  return bundle(join(ROOT, "widget/index.ts"));
}

export function buildConsole(): Promise<{ code: string; gzipBytes: number }> {
  return bundle(join(ROOT, "widget/console/index.ts"));
}

async function bundle(entrypoint: string): Promise<{ code: string; gzipBytes: number }> {
  const build = () =>
    Bun.build({
      entrypoints: [entrypoint],
      target: "browser",
      format: "iife",
      minify: true,
      // Lit's production build; the dev build is larger and warns in the console.
      conditions: ["production"],
      define: { "process.env.NODE_ENV": '"production"' },
      throw: false,
    });
  let result = await build();
  // Bun 1.3 under `bun test` sometimes fails to resolve "../x.ts" from widget/console/ on a
  // process's first builds (the same build then succeeds): retry those resolve-only failures.
  for (let attempt = 1; attempt < 4 && !result.success && result.logs.every((log) => log.name === "ResolveMessage"); attempt++) {
    result = await build();
  }
  if (!result.success) {
    throw new AggregateError(result.logs, `bundle of ${entrypoint} failed:\n${result.logs.map(String).join("\n")}`);
  }
  const output = result.outputs[0];
  if (!output) throw new Error(`bundle of ${entrypoint} produced no output`);
  const code = await output.text();
  return { code, gzipBytes: gzipSync(new TextEncoder().encode(code), { level: 9 }).byteLength };
}

if (import.meta.main) {
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  let over = false;
  for (const [name, build, budget] of [
    ["widget.js", buildWidget, WIDGET_BUDGET_GZIP_BYTES],
    ["console.js", buildConsole, CONSOLE_BUDGET_GZIP_BYTES],
  ] as const) {
    const { code, gzipBytes } = await build();
    const out = join(ROOT, "dist", name);
    await mkdir(dirname(out), { recursive: true });
    await Bun.write(out, code);
    const raw = new TextEncoder().encode(code).byteLength;
    console.log(`dist/${name}  ${kb(raw)} raw, ${kb(gzipBytes)} gzipped (budget ${kb(budget)})`);
    if (gzipBytes > budget) {
      console.error(`${name} is over its ${kb(budget)} gzip budget`);
      over = true;
    }
  }
  if (over) process.exit(1);
}
