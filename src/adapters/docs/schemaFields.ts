import type { JsonSchema } from "../openapi/jsonSchema.ts";

/** One line of a field table: a dotted name (nesting shown by depth), its type and rules. */
export interface FieldRow {
  name: string;
  depth: number;
  type: string;
  required: boolean;
  description: string;
}

const MAX_DEPTH = 6;

/**
 * Flattens a JSON Schema object into rows a person can read: nested objects and arrays of
 * objects are expanded under their field, constraints (range, length, allowed values) are
 * spelled out next to the type.
 */
export function schemaFields(schema: JsonSchema, components: Record<string, JsonSchema>): FieldRow[] {
  const rows: FieldRow[] = [];
  walkObject(resolve(schema, components), "", 0, rows, components);
  return rows;
}

function walkObject(schema: JsonSchema, prefix: string, depth: number, rows: FieldRow[], components: Record<string, JsonSchema>): void {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  for (const [name, raw] of Object.entries(properties)) {
    const field = resolve(raw, components);
    rows.push({
      name: prefix + name,
      depth,
      type: describeType(field, components),
      required: required.has(name),
      description: typeof field.description === "string" ? field.description : "",
    });
    if (depth >= MAX_DEPTH) continue;
    const inner = objectInside(field, components);
    if (inner) walkObject(inner.schema, `${prefix}${name}${inner.suffix}.`, depth + 1, rows, components);
  }
}

/** The object schema a field holds directly, in an array, or beside null. */
function objectInside(field: JsonSchema, components: Record<string, JsonSchema>): { schema: JsonSchema; suffix: string } | undefined {
  if (field.properties) return { schema: field, suffix: "" };
  if (field.items && typeof field.items === "object") {
    const items = resolve(field.items as JsonSchema, components);
    if (items.properties) return { schema: items, suffix: "[]" };
  }
  const variants = (field.anyOf ?? field.oneOf) as JsonSchema[] | undefined;
  const objects = variants?.map((v) => resolve(v, components)).filter((v) => v.properties);
  if (objects?.length === 1) return { schema: objects[0]!, suffix: "" };
  return undefined;
}

export function describeType(schema: JsonSchema, components: Record<string, JsonSchema>, depth = 0): string {
  if (depth > 4) return "…"; // a recursive schema: stop rather than loop
  const s = resolve(schema, components);
  const variants = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (variants) return variants.map((v) => describeType(v, components, depth + 1)).join(" | ");
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === "string" ? [s.type] : [];
  let base = types.length ? types.join(" | ") : "any";
  if (types.includes("array") && s.items && typeof s.items === "object") {
    base = base.replace("array", `array of ${describeType(s.items as JsonSchema, components, depth + 1)}`);
  }
  const rules: string[] = [];
  if (typeof s.format === "string") rules.push(s.format);
  if (typeof s.minimum === "number" && s.minimum > -Number.MAX_SAFE_INTEGER) rules.push(`≥ ${s.minimum}`);
  if (typeof s.maximum === "number" && s.maximum < Number.MAX_SAFE_INTEGER) rules.push(`≤ ${s.maximum}`);
  if (typeof s.minLength === "number" && s.minLength > 0) rules.push(`min ${s.minLength} chars`);
  if (typeof s.maxLength === "number") rules.push(`max ${s.maxLength} chars`);
  if (typeof s.minItems === "number") rules.push(`min ${s.minItems} items`);
  if (typeof s.maxItems === "number") rules.push(`max ${s.maxItems} items`);
  if (typeof s.pattern === "string") rules.push(`pattern ${s.pattern}`);
  if (s.default !== undefined) rules.push(`default ${JSON.stringify(s.default)}`);
  return rules.length ? `${base} (${rules.join(", ")})` : base;
}

function resolve(schema: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref === "string" && ref.startsWith("#/components/schemas/")) {
    return components[ref.slice("#/components/schemas/".length)] ?? {};
  }
  return schema;
}
