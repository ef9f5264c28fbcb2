import { DOCS_STYLE } from "./docsStyle.ts";
import { escapeHtml } from "./html.ts";
import { MANUAL_PAGES, type ManualPage } from "./manualPages.ts";

/** Where a page of the manual marks the place of the capability table, which the server fills in. */
export const CAPABILITY_TABLE_MARK = "<!-- capability-table -->";

export interface ManualHtml {
  /** The index page, /docs/manual. */
  index(): string;
  /** A page's HTML, or undefined for a name that is no page. */
  page(name: string): string | undefined;
  /** The page names, in the index's order. */
  names(): string[];
}

/**
 * The manual as HTML: each page rendered once, on first request, with Bun's built-in Markdown
 * renderer (GFM tables, heading ids; the GFM tag filter on, though the pages are ours) inside
 * the same self-contained frame as the API reference (one hashed style sheet, no scripts).
 * `capabilityTable` makes the Markdown of the capability table, spliced where a page marks it
 * (asked for only when such a page is first rendered).
 */
export function createManualHtml(options: { capabilityTable: () => string }): ManualHtml {
  const byName = new Map(MANUAL_PAGES.map((page) => [page.name, page]));
  const rendered = new Map<string, string>();
  let index: string | undefined;
  return {
    index: () => (index ??= renderIndex()),
    page(name) {
      const page = byName.get(name);
      if (!page) return undefined;
      let html = rendered.get(name);
      if (html === undefined) {
        html = renderPage(page, options.capabilityTable);
        rendered.set(name, html);
      }
      return html;
    },
    names: () => MANUAL_PAGES.map((page) => page.name),
  };
}

/** The page's title: its first "# " heading. */
export function pageTitle(page: ManualPage): string {
  const heading = page.markdown.split("\n").find((line) => line.startsWith("# "));
  return (heading ?? page.name).slice(2).replaceAll("`", "");
}

function renderPage(page: ManualPage, capabilityTable: () => string): string {
  const markdown = page.markdown.includes(CAPABILITY_TABLE_MARK) ? page.markdown.replace(CAPABILITY_TABLE_MARK, () => capabilityTable()) : page.markdown;
  const body = Bun.markdown.html(markdown, { headings: { ids: true }, tagFilter: true, tables: true, autolinks: false });
  return frame(pageTitle(page), localLinks(body));
}

/**
 * Links between pages are written as files (`security.md#the-front-door`) so they work where the
 * Markdown is read as files; served, the page lives at /docs/manual/security. Relative hrefs of
 * the form `<name>.md` lose their extension; every other href is left as written.
 */
function localLinks(html: string): string {
  return html.replace(/href="([a-z-]+)\.md(#[^"]*)?"/g, (_all, name: string, anchor: string | undefined) => `href="${name}${anchor ?? ""}"`);
}

function renderIndex(): string {
  const items = MANUAL_PAGES.map(
    (page) => `<li><a href="/docs/manual/${page.name}">${escapeHtml(pageTitle(page))}</a> <span class="muted">— ${escapeHtml(page.summary)}</span></li>`,
  ).join("\n");
  return frame(
    "Broker Directory manual",
    `<h1>Broker Directory manual</h1>
<p>The manual of this server's own version, served by the server itself. The generated API reference (every endpoint, parameter and field) is at <a href="/docs">/docs</a>; the machine-readable contract at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</p>
<ul>
${items}
</ul>`,
  );
}

function frame(title: string, body: string): string {
  const nav = MANUAL_PAGES.map((page) => `<a href="/docs/manual/${page.name}">${escapeHtml(page.name)}</a>`).join(" · ");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${DOCS_STYLE}</style></head>
<body><main>
<p class="muted"><a href="/docs/manual">Manual</a>: ${nav} · <a href="/docs">API reference</a></p>
${body}
</main></body></html>`;
}
