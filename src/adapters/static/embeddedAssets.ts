/**
 * Assets the compiled executable carries inside itself, handed to the server through this
 * registry: the binary's entry (scripts/binaryEntry.ts) registers them before main runs.
 *
 * When nothing is registered we are running from source (`bun src/main.ts serve`, tests):
 * the widget is then bundled from widget/ on first use and kept, so dev needs no prior
 * build and always serves the current source.
 */
export type EmbeddedAssetName = "widget.js";

const registered = new Map<EmbeddedAssetName, string>();

export function registerEmbeddedAsset(name: EmbeddedAssetName, content: string): void {
  registered.set(name, content);
}

export function embeddedAsset(name: EmbeddedAssetName): string | undefined {
  return registered.get(name);
}

/** True inside the compiled executable (its entry registered the widget). */
export function runningFromBinary(): boolean {
  return registered.has("widget.js");
}

let widgetBuild: Promise<string> | undefined;

/**
 * The widget bundle's code: the embedded copy in the binary, else a build of widget/ made
 * once per process. A failed dev build is not kept, so fixing the source and reloading works.
 */
export function widgetCode(): Promise<string> {
  const embedded = registered.get("widget.js");
  if (embedded !== undefined) return Promise.resolve(embedded);
  widgetBuild ??= buildWidgetFromSource().catch((error: unknown) => {
    widgetBuild = undefined;
    throw error;
  });
  return widgetBuild;
}

async function buildWidgetFromSource(): Promise<string> {
  // A computed specifier keeps the bundler from pulling the widget toolchain (Bun.build,
  // widget/, lit sources) into the executable, which never takes this path.
  const builderPath = new URL("../../../scripts/build-widget.ts", import.meta.url).href;
  const builder = (await import(builderPath)) as typeof import("../../../scripts/build-widget.ts");
  return (await builder.buildWidget()).code;
}
