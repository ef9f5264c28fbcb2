/**
 * Bundles widget/ (Lit included) into one minified file, dist/widget.js.
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

export async function buildWidget(): Promise<{ code: string; gzipBytes: number }> {
  const result = await Bun.build({
    entrypoints: [join(ROOT, "widget/index.ts")],
    target: "browser",
    format: "iife",
    minify: true,
    // Lit's production build; the dev build is larger and warns in the console.
    conditions: ["production"],
    define: { "process.env.NODE_ENV": '"production"' },
  });
  if (!result.success) {
    throw new AggregateError(result.logs, `widget build failed:\n${result.logs.map(String).join("\n")}`);
  }
  const output = result.outputs[0];
  if (!output) throw new Error("widget build produced no output");
  const code = await output.text();
  return { code, gzipBytes: gzipSync(new TextEncoder().encode(code), { level: 9 }).byteLength };
}

if (import.meta.main) {
  const { code, gzipBytes } = await buildWidget();
  const out = join(ROOT, "dist/widget.js");
  await mkdir(dirname(out), { recursive: true });
  await Bun.write(out, code);
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  const raw = new TextEncoder().encode(code).byteLength;
  console.log(`dist/widget.js  ${kb(raw)} raw, ${kb(gzipBytes)} gzipped (budget ${kb(WIDGET_BUDGET_GZIP_BYTES)})`);
  if (gzipBytes > WIDGET_BUDGET_GZIP_BYTES) {
    console.error("widget bundle is over its 30 KB gzip budget");
    process.exit(1);
  }
}
