/**
 * A happy-dom DOM for the widget tests only. setup-dom.ts installs it (through this module)
 * and then evaluates every widget module once, while the DOM is present.
 *
 * Why not a bunfig.toml preload: it would put a DOM under the server tests too. And why not
 * GlobalRegistrator.register/unregister per file: bun test shares one module cache across
 * files, so the widget classes stay bound to the first window; a fresh window per file would
 * have an empty customElements registry. So: one window for the whole run, its globals
 * installed while a widget file runs and removed (originals restored) after it.
 *
 * Bun's own fetch/Request/Response/URL/AbortController stay in place: the tests mock fetch
 * at that boundary with real Response objects.
 */
import { afterAll, beforeAll } from "bun:test";
import { GlobalWindow, PropertySymbol } from "happy-dom";

const KEEP = new Set([
  "constructor", "undefined", "NaN", "global", "globalThis",
  "fetch", "Request", "Response", "Headers", "FormData", "Blob", "File",
  "URL", "URLSearchParams", "AbortController", "AbortSignal", "TextEncoder", "TextDecoder",
  "ReadableStream", "WritableStream", "TransformStream", "console", "crypto",
  "setTimeout", "clearTimeout", "setInterval", "clearInterval", "queueMicrotask", "structuredClone",
]);

// Script tags in test pages are descriptions only: never fetch or run them.
const win = new GlobalWindow({
  url: "https://partner.example/page",
  width: 1024,
  height: 768,
  console: globalThis.console,
  settings: { disableJavaScriptFileLoading: true, handleDisabledFileLoadingAsSuccess: true },
});
const saved = new Map<PropertyKey, PropertyDescriptor | undefined>();
let installed = false;

export function installDom(): void {
  if (installed) return;
  installed = true;
  const descriptors = Object.getOwnPropertyDescriptors(win) as Record<PropertyKey, PropertyDescriptor>;
  const keys: PropertyKey[] = [...Object.keys(descriptors), ...Object.getOwnPropertySymbols(win)];
  for (const key of keys) {
    if (typeof key === "string" && KEEP.has(key)) continue;
    const descriptor = descriptors[key as string];
    if (!descriptor) continue;
    const current = Object.getOwnPropertyDescriptor(globalThis, key);
    // Fixed globals (Infinity, …) are the same in both worlds and cannot be replaced.
    if (current && !current.configurable) continue;
    saved.set(key, current);
    const value = descriptor.value === win ? { ...descriptor, value: globalThis } : descriptor;
    Object.defineProperty(globalThis, key, { ...value, configurable: true });
  }
  (win.document as unknown as Record<symbol, unknown>)[PropertySymbol.defaultView] = globalThis;
}

export function removeDom(): void {
  if (!installed) return;
  installed = false;
  for (const [key, original] of saved) {
    if (original) Object.defineProperty(globalThis, key, original);
    else delete (globalThis as Record<PropertyKey, unknown>)[key];
  }
  saved.clear();
}

/** Installs the DOM for this test file and removes it once the file's tests are done. */
export function useDom(): void {
  beforeAll(installDom);
  afterAll(removeDom);
}


installDom();
