import type { JsonSchema } from "../openapi/jsonSchema.ts";
import type { OpenApiDocument } from "../openapi/openApiDocument.ts";
import { DOCS_STYLE } from "./docsStyle.ts";
import { escapeHtml, inlineMarkup } from "./html.ts";
import { schemaFields, describeType, type FieldRow } from "./schemaFields.ts";

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
<title>${escapeHtml(info.title)} reference</title><style>${DOCS_STYLE}</style></head>
<body><main>
<h1>${escapeHtml(info.title)} <span class="muted">v${escapeHtml(info.version)}</span></h1>
<p>${inlineMarkup(info.description)}</p>
<p>Base URL <code>${escapeHtml(serverUrl)}</code> · machine-readable: <a href="/api/v1/openapi.json">OpenAPI 3.1 document</a> · typed TypeScript client over <code>/trpc</code> (see the <a href="/docs/manual/api#contracts-for-integrators-openapi-docs-and-the-typed-trpc-client">manual</a>) · <a href="/docs/manual">the manual</a>.</p>
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
