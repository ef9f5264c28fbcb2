/**
 * The partner snippet, as the README's widget section writes it: the container, then one async
 * script tag with the key, the widget type and the theme. Built in one place so the snippet
 * copied from the console and the one the live preview is checked against cannot differ.
 */
export const EMBED_TYPES = ["quote", "directory", "reviews"] as const;
export type EmbedType = (typeof EMBED_TYPES)[number];
export const EMBED_THEMES = ["light", "dark", "auto"] as const;
export type EmbedTheme = (typeof EMBED_THEMES)[number];

/** Attribute values are escaped: a pasted key is text, never markup. */
const attribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** The reviews widget shows one broker's reviews: its slug goes in data-broker (the other types take none). */
export function embedSnippet(options: { widgetUrl: string; key: string; type: EmbedType; theme: EmbedTheme; broker?: string }): string {
  const { widgetUrl, key, type, theme, broker } = options;
  const brokerAttribute = type === "reviews" && broker ? ` data-broker="${attribute(broker)}"` : "";
  return `<div id="broker-widget"></div>\n<script async src="${attribute(widgetUrl)}" data-key="${attribute(key)}" data-type="${type}" data-theme="${theme}"${brokerAttribute}></script>`;
}
