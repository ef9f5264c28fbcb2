/**
 * `bun run build` (or `bun scripts/build.ts --outfile PATH`): bundles the widget, then compiles the app into one executable,
 * dist/broker-directory, that runs on a machine without Bun or node_modules.
 *
 * What the executable carries: the whole app and its dependencies; the migrations (text
 * imports in db/migrations.ts); the demo generator with canada.json and carriers.json
 * (JSON imports); the widget and console bundles (the virtual modules "embedded:widget.js"
 * and "embedded:console.js" below, which scripts/binaryEntry.ts registers in
 * src/adapters/static/embeddedAssets.ts).
 *
 * Choices:
 * - bytecode: JavaScriptCore parses the app at build time instead of at every start.
 * - no .env / bunfig.toml autoload: the binary is configured only by its flags and
 *   environment (as `serve --help` lists), never by a stray file in its working directory.
 */
import { statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { BunPlugin } from "bun";
import { buildConsole, buildWidget, CONSOLE_BUDGET_GZIP_BYTES, WIDGET_BUDGET_GZIP_BYTES } from "./build-widget.ts";

const ROOT = join(import.meta.dir, "..");
export const BINARY_PATH = join(ROOT, "dist/broker-directory");

export interface BuildResult {
  binaryPath: string;
  binaryBytes: number;
  widgetBytes: number;
  widgetGzipBytes: number;
  ms: number;
}

export async function buildBinary(outfile = BINARY_PATH): Promise<BuildResult> {
  const started = performance.now();
  const widget = await buildWidget();
  if (widget.gzipBytes > WIDGET_BUDGET_GZIP_BYTES) {
    throw new Error(`the widget bundle is ${widget.gzipBytes} bytes gzipped, over its ${WIDGET_BUDGET_GZIP_BYTES} byte budget`);
  }
  await Bun.write(join(ROOT, "dist/widget.js"), widget.code);
  const consoleBundle = await buildConsole();
  await Bun.write(join(ROOT, "dist/console.js"), consoleBundle.code);
  if (consoleBundle.gzipBytes > CONSOLE_BUDGET_GZIP_BYTES) {
    throw new Error(`the console bundle is ${consoleBundle.gzipBytes} bytes gzipped, over its ${CONSOLE_BUDGET_GZIP_BYTES} byte budget`);
  }

  const result = await Bun.build({
    // The checkpointer runs in a worker thread: its script is an entrypoint of its own (Bun
    // bundles each entrypoint separately into the executable; see src/storage/sqlite/backgroundCheckpoints.ts).
    entrypoints: [join(ROOT, "scripts/binaryEntry.ts"), join(ROOT, "src/storage/sqlite/checkpointWorker.ts")],
    target: "bun",
    minify: true,
    sourcemap: "linked",
    bytecode: true,
    format: "esm",
    compile: { outfile, autoloadDotenv: false, autoloadBunfig: false },
    plugins: [embeddedModule("embedded:widget.js", widget.code), embeddedModule("embedded:console.js", consoleBundle.code)],
  });
  if (!result.success) {
    throw new AggregateError(result.logs, `compile failed:\n${result.logs.map(String).join("\n")}`);
  }
  return {
    binaryPath: outfile,
    binaryBytes: statSync(outfile).size,
    widgetBytes: new TextEncoder().encode(widget.code).byteLength,
    widgetGzipBytes: widget.gzipBytes,
    ms: performance.now() - started,
  };
}

/** A module whose default export is `text`, resolved from memory under `specifier`. */
function embeddedModule(specifier: string, text: string): BunPlugin {
  const filter = new RegExp(`^${specifier.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
  return {
    name: specifier,
    setup(build) {
      build.onResolve({ filter }, () => ({ path: specifier, namespace: "embedded" }));
      build.onLoad({ filter, namespace: "embedded" }, () => ({
        contents: `export default ${JSON.stringify(text)};`,
        loader: "js",
      }));
    },
  };
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { outfile: { type: "string" } }, strict: true });
  const built = await buildBinary(values.outfile ? resolve(values.outfile) : undefined);
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  console.log(`dist/widget.js          ${kb(built.widgetBytes)} raw, ${kb(built.widgetGzipBytes)} gzipped`);
  console.log(`${relative(process.cwd(), built.binaryPath).padEnd(22)}  ${mb(built.binaryBytes)} (built in ${(built.ms / 1000).toFixed(1)} s)`);
  console.log("Run it anywhere (linux x64, no Bun needed): ./broker-directory serve");
}
