import { createHash } from "node:crypto";

/** The one style sheet of the pages under /docs (the API reference and the manual), inline and allowed by its hash. */
export const DOCS_STYLE = `
:root{color-scheme:light dark;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--bg:#fff;--code:#f3f4f6;--accent:#0b5cad}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9da7b3;--line:#30363d;--bg:#0d1117;--code:#161b22;--accent:#58a6ff}}
*{box-sizing:border-box}body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:980px;margin:0 auto;padding:24px 20px 80px}h1{font-size:1.9rem;margin:.2em 0}h2{margin-top:2.2em;border-bottom:1px solid var(--line);padding-bottom:.3em}
h3{margin:2em 0 .4em;font-size:1.15rem;scroll-margin-top:12px}a{color:var(--accent)}code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.88em;background:var(--code);border-radius:4px}
code{padding:.1em .35em}pre{padding:12px;overflow-x:auto;white-space:pre}pre code{padding:0;background:none}
table{border-collapse:collapse;width:100%;margin:.5em 0 1em;font-size:.93rem}th,td{text-align:left;vertical-align:top;border-bottom:1px solid var(--line);padding:6px 8px}
th{color:var(--muted);font-weight:600}.muted{color:var(--muted)}.method{display:inline-block;min-width:4.2em;font-weight:700;font-family:ui-monospace,monospace}
.GET{color:#1a7f37}.POST{color:#0969da}.PUT,.PATCH{color:#9a6700}.DELETE{color:#cf222e}.req{color:#cf222e;font-size:.8em}
.d1{padding-left:26px}.d2{padding-left:44px}.d3{padding-left:62px}.d4{padding-left:80px}.d5{padding-left:98px}.d6{padding-left:116px}
nav ul{columns:2;padding-left:1.2em}@media (max-width:700px){nav ul{columns:1}}.op{border-top:1px solid var(--line)}
`;
const STYLE_HASH = `sha256-${createHash("sha256").update(DOCS_STYLE).digest("base64")}`;

/** No scripts, no outside requests, no style attributes: the page may use only its own inline style sheet. */
export const DOCS_CONTENT_SECURITY_POLICY =
  `default-src 'none'; style-src '${STYLE_HASH}'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

