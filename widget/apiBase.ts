/**
 * Where the API lives when an element is not told (no api-base attribute): the origin
 * widget.js was loaded from, so `<broker-directory api-key=…>` works on any partner page
 * that includes the script. Falls back to the page's own origin (same-host installs).
 */
export function isWidgetScript(script: HTMLScriptElement): boolean {
  try {
    return new URL(script.src, document.baseURI).pathname.endsWith("/widget.js");
  } catch {
    return false;
  }
}

export function defaultApiBase(): string {
  for (const script of Array.from(document.querySelectorAll<HTMLScriptElement>("script[src]"))) {
    if (isWidgetScript(script)) return new URL(script.src, document.baseURI).origin;
  }
  return location.origin;
}
