/**
 * The compiled executable's entry point (scripts/build.ts compiles this file, not
 * src/main.ts): the same CLI as `bun src/main.ts`, with the build-time assets registered
 * first. ES modules evaluate their imports in order, so registration precedes the app.
 * (Static imports on purpose: a dynamic import here fails to resolve when Bun.build
 * compiles with bytecode from inside `bun test`.)
 */
import "./registerEmbeddedAssets.ts";
import "../src/main.ts";
