import type { Awaitable } from "../../storage/ports.ts";

/**
 * GET /demo: the three widgets in a light and a dark column, on the server's own origin.
 * The light column uses the partner snippet (script tags); the dark one uses the custom
 * elements directly. The key is ?key=… or the demo embed key the server created at start
 * (only key hashes live in the database, so the page cannot look one up itself).
 *
 * Everything reflected from the query string is HTML-escaped, and the page runs under a
 * strict Content-Security-Policy to show the widget needs no inline script or style.
 */
export interface DemoPageOptions {
  /** The key to put in the page now (it is renewed before it expires). */
  embedKey: () => Awaitable<string | undefined>;
  /** A broker with reviews for the reviews widget; else ?broker=, else the first listed. */
  brokerSlug?: string;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

export function demoPageHandler(options: DemoPageOptions): (request: Request) => Awaitable<Response> {
  return (request) => {
    const url = new URL(request.url);
    const key = url.searchParams.get("key")?.trim() || options.embedKey();
    // Made on first use: with PostgreSQL that is a round trip, awaited once.
    return key instanceof Promise ? key.then((made) => demoPage(url, made, options)) : demoPage(url, key, options);
  };
}

function demoPage(url: URL, key: string | undefined, options: DemoPageOptions): Response {
  const lang = url.searchParams.get("lang") === "fr" ? "fr" : "en";
  const broker = url.searchParams.get("broker")?.trim() || options.brokerSlug || "";
  const nonce = crypto.randomUUID().replace(/-/g, "");
  const html = key ? pageWithWidgets({ key, lang, broker, nonce, origin: url.origin }) : pageWithoutKey(nonce, url.origin);
  return new Response(html, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy": [
        "default-src 'none'",
        `script-src 'self' 'nonce-${nonce}'`,
        `style-src 'self' 'nonce-${nonce}'`,
        "img-src 'self' https: data:",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
      ].join("; "),
      "Referrer-Policy": "no-referrer",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

const STYLE = `
  body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: #1b1f24; background: #eef1f4; }
  header { padding: 1.5rem clamp(1rem, 4vw, 3rem); }
  h1 { margin: 0 0 .25rem; font-size: 1.5rem; }
  header p { margin: .25rem 0; max-width: 60rem; }
  pre { overflow-x: auto; background: #fff; border: 1px solid #c5cad1; border-radius: 8px; padding: .75rem; font-size: .8125rem; }
  .snippet-note { max-width: 60rem; padding: .5rem .75rem; border-inline-start: 4px solid #b35c00; background: #fff6e5; }
  main { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 30rem), 1fr)); }
  section { padding: 1.5rem clamp(.5rem, 3vw, 2rem); display: grid; gap: 1.5rem; align-content: start; }
  section.dark { background: #0d0f12; color: #e9ecef; }
  section.dark a { color: #7ab8ff; }
  h2 { margin: 0; font-size: 1.125rem; }
  h3 { margin: 0 0 .5rem; font-size: .875rem; text-transform: uppercase; letter-spacing: .06em; opacity: .8; }
  .light broker-quote-form, .light broker-directory, .light broker-reviews { box-shadow: 0 1px 3px rgba(0,0,0,.12); }
  a { color: #0a58a8; }
`;

function shell(nonce: string, lang: string, body: string, script = ""): string {
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Broker Directory widget demo</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
${body}
${script}
</body>
</html>`;
}

function pageWithoutKey(nonce: string, origin: string): string {
  const o = escapeHtml(origin);
  return shell(
    nonce,
    "en",
    `<header>
<h1>Broker Directory widget demo</h1>
<p>This page needs an embed key. Start the server with demo data (it then creates one for this origin),
or create a key allowed on this origin and pass it in the address:</p>
<pre>bun src/main.ts keys create --name demo --origins ${o} --scopes brokers:read,reviews:read,quotes:write,leads:write
${o}/demo?key=brk_…</pre>
</header>`,
  );
}

function pageWithWidgets(p: { key: string; lang: string; broker: string; nonce: string; origin: string }): string {
  const key = escapeHtml(p.key);
  const broker = escapeHtml(p.broker);
  const origin = escapeHtml(p.origin);
  const fr = p.lang === "fr";
  const snippet = escapeHtml(
    `<div id="broker-widget"></div>\n<script async src="${p.origin}/widget.js" data-key="${p.key}" data-type="directory" data-theme="auto"></script>`,
  );
  const langLink = fr
    ? `<a href="?key=${encodeURIComponent(p.key)}&amp;lang=en">English</a>`
    : `<a href="?key=${encodeURIComponent(p.key)}&amp;lang=fr">Français</a>`;
  const brokerAttr = broker ? ` data-broker="${broker}"` : "";
  const body = `<header>
<h1>Broker Directory widget demo</h1>
<p>The light column is built from the partner snippet (one async script tag per widget); the dark column uses the custom
elements directly. Clicking a broker card opens its profile, and the page shows its reviews below too (it listens for <code>broker-widget:select</code>). ${langLink}</p>
<pre>${snippet}</pre>
<p class="snippet-note" id="snippet-note"><strong>This snippet only works here.</strong> Its key is this demo's own embed key: it is allowed on this server's origin
(<code>${origin}</code>) only, and it is revoked when this server process stops. Pasted into your page it answers 403.
For your site, open the console (<code>broker-directory console-link --workspace NAME</code>), create an embed key with your site's origin
and use its <strong>Copy embed code</strong> button — or run <code>broker-directory keys create --workspace NAME --origins https://your-site.example</code>.
Never put a server key (one without origins) in a page: the server refuses it from a browser.</p>
</header>
<main>
<section class="light" aria-labelledby="light-title">
  <h2 id="light-title">Light</h2>
  <div><h3>data-type="quote"</h3><div id="light-quote"></div></div>
  <div><h3>data-type="directory"</h3><div id="light-directory"></div></div>
  <div><h3>data-type="reviews"</h3><div id="light-reviews"></div></div>
  <script async src="${origin}/widget.js" data-key="${key}" data-type="quote" data-theme="light" data-lang="${p.lang}" data-target="#light-quote"></script>
  <script async src="${origin}/widget.js" data-key="${key}" data-type="directory" data-theme="light" data-lang="${p.lang}" data-limit="4" data-target="#light-directory"></script>
  <script async src="${origin}/widget.js" data-key="${key}" data-type="reviews" data-theme="light" data-lang="${p.lang}" data-limit="3"${brokerAttr} data-target="#light-reviews"></script>
</section>
<section class="dark" aria-labelledby="dark-title">
  <h2 id="dark-title">Dark</h2>
  <div><h3>&lt;broker-quote-form&gt;</h3><broker-quote-form api-key="${key}" theme="dark" lang="${p.lang}" insurance-type="Home"></broker-quote-form></div>
  <div><h3>&lt;broker-directory&gt;</h3><broker-directory api-key="${key}" theme="dark" lang="${p.lang}" limit="4"></broker-directory></div>
  <div><h3>&lt;broker-reviews&gt;</h3><broker-reviews api-key="${key}" theme="dark" lang="${p.lang}" limit="3"${broker ? ` broker="${broker}"` : ""}></broker-reviews></div>
</section>
</main>`;
  return shell(p.nonce, p.lang, body, demoScript(p.nonce, p.key, p.broker));
}

/**
 * The host-page side of the demo: a directory card click shows that broker's reviews
 * (a cancelable broker-widget:select), and with no broker given the first one listed is used.
 */
function demoScript(nonce: string, key: string, broker: string): string {
  // JSON.stringify + escaping "<" keeps the key a string literal that cannot close the script.
  const literal = (v: string) => JSON.stringify(v).replace(/</g, "\\u003c");
  return `<script nonce="${nonce}">
(() => {
  const showReviews = (slug) => {
    for (const el of document.querySelectorAll("broker-reviews")) el.setAttribute("broker", slug);
  };
  document.addEventListener("broker-widget:select", (event) => {
    // Not cancelled: the directory opens the broker's profile as well.
    if (event.detail && event.detail.kind === "broker") showReviews(event.detail.broker.slug);
  });
  // After "load", the async widget.js has run and every <broker-reviews> exists.
  if (!${literal(broker)}) addEventListener("load", () => {
    fetch("/api/v1/embed/brokers?limit=1", { headers: { Authorization: "Bearer " + ${literal(key)} } })
      .then((r) => (r.ok ? r.json() : null))
      .then((body) => { if (body && body.data && body.data[0]) showReviews(body.data[0].slug); })
      .catch(() => {});
  });
})();
</script>`;
}
