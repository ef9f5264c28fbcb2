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
// scripts/build.ts compiles the checkpointer's script as an entrypoint of its own, at its path
// relative to the repository, as JavaScript (this file is bundled into scripts/binaryEntry.js).
useCheckpointWorkerScript(new URL("../src/storage/sqlite/checkpointWorker.js", import.meta.url).href);
