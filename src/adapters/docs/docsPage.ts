import { createHash } from "node:crypto";
import type { JsonSchema } from "../openapi/jsonSchema.ts";
import type { OpenApiDocument } from "../openapi/openApiDocument.ts";
import { escapeHtml, inlineMarkup } from "./html.ts";
import { schemaFields, describeType, type FieldRow } from "./schemaFields.ts";

const STYLE = `
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
const STYLE_HASH = `sha256-${createHash("sha256").update(STYLE).digest("base64")}`;

/** No scripts, no outside requests, no style attributes: the page may use only its own inline style sheet. */
export const DOCS_CONTENT_SECURITY_POLICY =
  `default-src 'none'; style-src '${STYLE_HASH}'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

/**
 * The human-readable API reference at /docs, written from the OpenAPI document (so it can
 * never disagree with it). Self-contained HTML; every value from the document is escaped.
 */
export function renderDocsPage(document: OpenApiDocument): string {
  const info = document.info as { title: string; version: string; description: string };
  const serverUrl = ((document.servers as { url: string }[])[0]?.url ?? "").replace(/\/$/, "");
  const components = document.components as {
    schemas: Record<string, JsonSchema>;
    securitySchemes: { bearerAuth: { description: string } };
    responses: Record<string, { description: string }>;
  };
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );

  const nav = operations
    .map(({ path, method, op }) => `<li><a href="#${escapeHtml(op.operationId)}"><span class="method ${escapeHtml(method)}">${escapeHtml(method)}</span> ${escapeHtml(path)}</a></li>`)
    .join("");
  const sections = operations.map(({ path, method, op }) => renderOperation(path, method, op, serverUrl, components)).join("");
  const errors = Object.entries(components.responses)
    .map(([name, r]) => `<tr><td><code>${escapeHtml(name.replace(/^Error/, ""))}</code></td><td>${inlineMarkup(r.description)}</td></tr>`)
    .join("");

  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(info.title)} reference</title><style>${STYLE}</style></head>
<body><main>
<h1>${escapeHtml(info.title)} <span class="muted">v${escapeHtml(info.version)}</span></h1>
<p>${inlineMarkup(info.description)}</p>
<p>Base URL <code>${escapeHtml(serverUrl)}</code> · machine-readable: <a href="/api/v1/openapi.json">OpenAPI 3.1 document</a> · typed TypeScript client over <code>/trpc</code> (see the README).</p>
<h2>Authentication</h2>
${renderMarkdownList(components.securitySchemes.bearerAuth.description)}
<h2>Errors</h2>
<p>Every error is JSON <code>{"error": "…"}</code>; invalid input adds <code>issues</code>, one <code>{path, message}</code> per field.</p>
<table><thead><tr><th>Status</th><th>Meaning</th></tr></thead><tbody>${errors}</tbody></table>
<h2>Endpoints</h2>
<nav><ul>${nav}</ul></nav>
${sections}
</main></body></html>`;
}

function renderOperation(path: string, method: string, op: JsonSchema, serverUrl: string, components: { schemas: Record<string, JsonSchema> }): string {
  const parameters = (op.parameters ?? []) as { name: string; in: string; required: boolean; description?: string; schema: JsonSchema }[];
  const paramRows = parameters
    .map((p) => `<tr><td><code>${escapeHtml(p.name)}</code>${p.required ? ' <span class="req">required</span>' : ""}</td><td>${escapeHtml(p.in)}</td><td>${escapeHtml(describeType(p.schema, components.schemas))}</td><td>${escapeHtml(p.description ?? "")}</td></tr>`)
    .join("");
  const body = (op.requestBody as { content: Record<string, { schema: JsonSchema }> } | undefined)?.content["application/json"]?.schema;
  const responses = op.responses as Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
  const [successStatus, success] = Object.entries(responses).find(([status]) => status.startsWith("2")) ?? ["200", undefined];
  const successSchema = success?.content?.["application/json"]?.schema;
  const errorStatuses = Object.keys(responses).filter((s) => !s.startsWith("2")).join(", ");

  const query = parameters.filter((p) => p.in === "query" && p.required).map((p) => `${p.name}=…`).join("&");
  const curlPath = path + (query ? `?${query}` : "");
  const curl = [`curl -H "Authorization: Bearer $BROKER_KEY"`];
  if (body) curl.push(`-H "Content-Type: application/json" -d '{…}'`);
  curl.push(`"${serverUrl}${curlPath}"`);
  if (method !== "GET" && !body) curl.splice(1, 0, `-X ${method}`);

  return `<section class="op">
<h3 id="${escapeHtml(op.operationId)}"><span class="method ${escapeHtml(method)}">${escapeHtml(method)}</span> <code>${escapeHtml(path)}</code></h3>
<p>${escapeHtml(op.summary)}. ${inlineMarkup(String(op.description ?? ""))}</p>
${paramRows ? `<h4>Parameters</h4><table><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Description</th></tr></thead><tbody>${paramRows}</tbody></table>` : ""}
${body ? `<h4>Request body (JSON)</h4>${fieldTable(schemaFields(body, components.schemas))}` : ""}
<h4>Response ${escapeHtml(successStatus)}</h4>
${successSchema ? fieldTable(schemaFields(successSchema, components.schemas)) : "<p class=\"muted\">No body.</p>"}
<p class="muted">Errors: ${escapeHtml(errorStatuses)}</p>
<pre><code>${escapeHtml(curl.join(" \\\n  "))}</code></pre>
</section>`;
}

function fieldTable(rows: FieldRow[]): string {
  if (rows.length === 0) return '<p class="muted">An empty object.</p>';
  const body = rows
    .map((r) => `<tr><td class="d${Math.min(r.depth, 6)}"><code>${escapeHtml(r.name)}</code>${r.required ? ' <span class="req">required</span>' : ""}</td><td>${escapeHtml(r.type)}</td><td>${escapeHtml(r.description)}</td></tr>`)
    .join("");
  return `<table><thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead><tbody>${body}</tbody></table>`;
}

/** Our descriptions use a sliver of Markdown: paragraphs, "- " bullets and `code`. */
function renderMarkdownList(text: string): string {
  return text
    .split(/\n\n+/)
    .map((block) => {
      const lines = block.split("\n");
      return lines.every((l) => l.startsWith("- "))
        ? `<ul>${lines.map((l) => `<li>${inlineMarkup(l.slice(2))}</li>`).join("")}</ul>`
        : `<p>${inlineMarkup(block)}</p>`;
    })
    .join("\n");
}
