/**
 * Assets the compiled executable carries inside itself, handed to the server through this
 * registry: the binary's entry (scripts/binaryEntry.ts) registers them before main runs.
 *
 * When nothing is registered we are running from source (`bun src/main.ts serve`, tests):
 * the widget is then bundled from widget/ on first use and kept, so dev needs no prior
 * build and always serves the current source.
 */
export type EmbeddedAssetName = "widget.js" | "console.js";

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

const builds = new Map<EmbeddedAssetName, Promise<string>>();

/**
 * A bundle's code: the embedded copy in the binary, else a build from source made once per
 * process. A failed dev build is not kept, so fixing the source and reloading works.
 */
function bundleCode(name: EmbeddedAssetName, build: () => Promise<string>): Promise<string> {
  const embedded = registered.get(name);
  if (embedded !== undefined) return Promise.resolve(embedded);
  let building = builds.get(name);
  if (!building) {
    building = build().catch((error: unknown) => {
      builds.delete(name);
      throw error;
    });
    builds.set(name, building);
  }
  return building;
}

/** The widget bundle (widget/index.ts), as served at /widget.js. */
export function widgetCode(): Promise<string> {
  return bundleCode("widget.js", async () => (await builder()).buildWidget().then((b) => b.code));
}

/** The console bundle (widget/console/index.ts), as served at /console/console.js. */
export function consoleCode(): Promise<string> {
  return bundleCode("console.js", async () => (await builder()).buildConsole().then((b) => b.code));
}

async function builder(): Promise<typeof import("../../../scripts/build-widget.ts")> {
  // A computed specifier keeps the bundler from pulling the widget toolchain (Bun.build,
  // widget/, lit sources) into the executable, which never takes this path.
  const builderPath = new URL("../../../scripts/build-widget.ts", import.meta.url).href;
  return (await import(builderPath)) as typeof import("../../../scripts/build-widget.ts");
}
