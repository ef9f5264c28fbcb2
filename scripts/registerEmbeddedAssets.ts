/**
 * Hands the assets bundled at build time to the server's registry. Imported by
 * binaryEntry.ts before the app, so the registry is filled before any app code runs.
 * "embedded:widget.js" and "embedded:console.js" are modules scripts/build.ts provides from memory.
 */
import consoleCode from "embedded:console.js";
import widgetCode from "embedded:widget.js";
import { registerEmbeddedAsset } from "../src/adapters/static/embeddedAssets.ts";

registerEmbeddedAsset("widget.js", widgetCode);
registerEmbeddedAsset("console.js", consoleCode);
