/**
 * Hands the assets bundled at build time to the server's registry. Imported by
 * binaryEntry.ts before the app, so the registry is filled before any app code runs.
 * "embedded:widget.js" is a module scripts/build.ts provides from memory.
 */
import widgetCode from "embedded:widget.js";
import { registerEmbeddedAsset } from "../src/adapters/static/embeddedAssets.ts";

registerEmbeddedAsset("widget.js", widgetCode);
