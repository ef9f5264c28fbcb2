import { isWidgetScript } from "./apiBase.ts";

/**
 * The script-tag sugar: <script async src=".../widget.js" data-key data-type …> becomes a
 * <broker-*> element inside the container. document.currentScript is null for async and
 * module scripts, so every widget.js tag not yet processed is found by its src instead,
 * which also makes several tags on one page (each with its own data-target) work.
 */
const ELEMENT_BY_TYPE: Record<string, string> = {
  quote: "broker-quote-form",
  directory: "broker-directory",
  reviews: "broker-reviews",
};

// data-* on the script → attribute on the element (the API base is derived, not copied).
const ATTRIBUTE_MAP: [string, string][] = [
  ["key", "api-key"],
  ["theme", "theme"],
  ["lang", "lang"],
  ["province", "province"],
  ["city", "city"],
  ["insuranceType", "insurance-type"],
  ["limit", "limit"],
  ["broker", "broker"],
  ["link", "link"],
];

export const CONTAINER_ID = "broker-widget";
const PROCESSED = "bwMounted";

/** The container named by data-target, else #broker-widget; created after the script if absent. */
function containerFor(script: HTMLScriptElement): HTMLElement {
  const selector = script.dataset.target || `#${CONTAINER_ID}`;
  let found: HTMLElement | null = null;
  try {
    found = document.querySelector<HTMLElement>(selector);
  } catch {
    // An invalid selector is treated like a missing container.
  }
  // Without data-target, a second script must not reuse the first one's #broker-widget.
  if (found && !(found.dataset[PROCESSED] && !script.dataset.target)) return found;
  const container = document.createElement("div");
  const id = /^#[\w-]+$/.test(selector) ? selector.slice(1) : "";
  if (id && !document.getElementById(id)) container.id = id;
  script.after(container);
  return container;
}

/** Mounts one widget for one script tag; returns the element created (or undefined). */
export function mountScript(script: HTMLScriptElement): HTMLElement | undefined {
  script.dataset[PROCESSED] = "true";
  const container = containerFor(script);
  container.dataset[PROCESSED] = "true";
  const tag = ELEMENT_BY_TYPE[(script.dataset.type || "directory").toLowerCase()];
  if (!tag) {
    // A visible line for the site owner rather than an empty box.
    const note = document.createElement("p");
    note.textContent = "Broker widget: data-type must be quote, directory or reviews.";
    container.replaceChildren(note);
    return undefined;
  }
  const element = document.createElement(tag);
  element.setAttribute("api-base", new URL(script.src, document.baseURI).origin);
  for (const [data, attribute] of ATTRIBUTE_MAP) {
    const value = script.dataset[data];
    if (value) element.setAttribute(attribute, value);
  }
  container.replaceChildren(element);
  return element;
}

/** Mounts every widget.js script tag on the page that has not been mounted yet. */
export function mountAll(root: Document = document): HTMLElement[] {
  const scripts = Array.from(root.querySelectorAll<HTMLScriptElement>("script[src]")).filter(
    (s) => isWidgetScript(s) && !s.dataset[PROCESSED],
  );
  return scripts.map(mountScript).filter((e): e is HTMLElement => e !== undefined);
}

/** Mounts now, or once the page is parsed if an async script ran before its container existed. */
export function start(): void {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => mountAll(), { once: true });
  else mountAll();
}
