import type { EmbedTheme, EmbedType } from "./embedSnippet.ts";

/** The custom element each snippet type becomes (as widget/loader.ts maps data-type). */
const ELEMENT_BY_TYPE: Record<EmbedType, string> = { quote: "broker-quote-form", directory: "broker-directory", reviews: "broker-reviews" };

let loading: Promise<void> | undefined;

/**
 * Loads this server's widget.js once, for the preview's custom elements. From this origin (the
 * console's CSP allows scripts from 'self' only), and marked as mounted already (the loader's
 * data-bw-mounted), so the loader does not mount a keyless widget for the script tag itself.
 */
export function loadWidgetScript(): Promise<void> {
  loading ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = "/widget.js";
    script.async = true;
    script.dataset.bwMounted = "true";
    script.addEventListener("load", () => resolve());
    script.addEventListener("error", () => {
      loading = undefined;
      reject(new Error("widget.js did not load"));
    });
    document.head.append(script);
  });
  return loading;
}

/** The widget element a snippet of this type and theme mounts, with the preview's key and this origin's API. */
export function previewElement(options: { key: string; type: EmbedType; theme: EmbedTheme; lang: string; broker: string }): HTMLElement {
  const element = document.createElement(ELEMENT_BY_TYPE[options.type]);
  element.setAttribute("api-key", options.key);
  element.setAttribute("api-base", location.origin);
  element.setAttribute("theme", options.theme);
  element.setAttribute("lang", options.lang);
  if (options.type !== "quote") element.setAttribute("limit", "3");
  if (options.type === "reviews" && options.broker) element.setAttribute("broker", options.broker);
  return element;
}

/** A published broker's slug, for a reviews preview nobody named a broker for yet. */
export async function firstBrokerSlug(key: string): Promise<string | undefined> {
  try {
    const response = await fetch("/api/v1/embed/brokers?limit=1", { headers: { Authorization: `Bearer ${key}` } });
    if (!response.ok) return undefined;
    const body = (await response.json()) as { data?: { slug?: string }[] };
    return body.data?.[0]?.slug;
  } catch {
    return undefined;
  }
}
