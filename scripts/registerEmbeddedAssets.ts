/**
 * Hands the assets bundled at build time to the server's registry. Imported by
 * binaryEntry.ts before the app, so the registry is filled before any app code runs.
 * "embedded:widget.js" and "embedded:console.js" are modules scripts/build.ts provides from memory;
 * the checkpointer's worker script is an entrypoint of the build.
 */
import consoleCode from "embedded:console.js";
import widgetCode from "embedded:widget.js";
import { registerEmbeddedAsset } from "../src/adapters/static/embeddedAssets.ts";
import { useCheckpointWorkerScript } from "../src/storage/sqlite/backgroundCheckpoints.ts";

registerEmbeddedAsset("widget.js", widgetCode);
registerEmbeddedAsset("console.js", consoleCode);
// scripts/build.ts compiles the checkpointer's script as an entrypoint of its own. Named as
// Bun's manual names a worker entrypoint ("Worker" in docs/bundler/executables): its path from
// the entrypoints' common folder, the repository. Not from import.meta.url: Bun 1.4 names the
// main module after the executable (/$bunfs/root/broker-directory), 1.3 after its source path.
useCheckpointWorkerScript("./src/storage/sqlite/checkpointWorker.ts");
