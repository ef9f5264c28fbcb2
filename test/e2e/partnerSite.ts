/**
 * A partner's web site for the browser tests: a second Bun.serve on its own port, hence a
 * different origin from the directory, serving pages that embed the widget exactly as the
 * README and the manual's widget page tell partners to (one async script tag, a #broker-widget container).
 */
import type { Server } from "bun";

export interface PartnerSite {
  origin: string;
  server: Server<undefined>;
  stop(): Promise<void>;
}

export interface WidgetTag {
  type: "quote" | "directory" | "reviews";
  key: string;
  attributes?: Record<string, string>;
}

const escape = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Pages are registered as path → list of widget tags; each page also has a plain heading. */
/** `footer`: the partner's content after the widgets, whose moves a layout-shift measurement sees. */
export function startPartnerSite(directoryUrl: string, pages: Record<string, { lang?: string; widgets: WidgetTag[]; background?: string; footer?: string }>): PartnerSite {
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request) {
      const page = pages[new URL(request.url).pathname];
      if (!page) return new Response("not found", { status: 404 });
      const tags = page.widgets
        .map((w, i) => {
          const data = Object.entries({ key: w.key, type: w.type, ...w.attributes })
            .map(([name, value]) => ` data-${name}="${escape(value)}"`)
            .join("");
          // The first widget uses the default container; the others name theirs.
          const container = i === 0 ? `<div id="broker-widget"></div>` : `<div id="w${i}"></div>`;
          const target = i === 0 ? "" : ` data-target="#w${i}"`;
          return `${container}\n<script async src="${directoryUrl}/widget.js"${data}${target}></script>`;
        })
        .join("\n");
      const html = `<!doctype html><html lang="${page.lang ?? "en"}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Partner page</title>
<style>body{margin:0;padding:16px;font-family:Georgia,serif;background:${page.background ?? "#faf7f2"}}
/* A partner's global CSS that must not leak into the widget. */ input,select,button,h2,h3,p{color:#c00 !important;font-family:"Comic Sans MS",cursive}</style>
</head><body><h1>Partner insurance blog</h1>${tags}${page.footer ?? ""}</body></html>`;
      return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
    },
  });
  return { origin: `http://127.0.0.1:${server.port}`, server, stop: () => server.stop(true) };
}
