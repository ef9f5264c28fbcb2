import { z } from "zod";
import { toJsonSchema } from "../../schemas/jsonSchema.ts";

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) as a plain object. */
export type JsonSchema = { [key: string]: unknown };

/**
 * JSON Schema for one zod schema, as it appears inside an OpenAPI document. `io: "input"`
 * describes what a client may send (defaults optional, preprocessors by their target type),
 * `io: "output"` what it gets back. Shared definitions ($defs, for recursive or registered
 * schemas) are moved into `components` under `prefix` so every $ref resolves in the document;
 * anything JSON Schema cannot say (a custom check) becomes "any" rather than failing the doc.
 */
export function toOpenApiSchema(
  schema: z.ZodType,
  io: "input" | "output",
  prefix: string,
  components: Record<string, JsonSchema>,
): JsonSchema {
  const generated = toJsonSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as JsonSchema;
  const { $schema: _dialect, $defs, ...root } = generated;
  const rename = (name: string) => `${prefix}${name.replace(/[^A-Za-z0-9._-]/g, "_")}`;
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (!value || typeof value !== "object") return value;
    const out: JsonSchema = {};
    for (const [key, inner] of Object.entries(value)) {
      out[key] = key === "$ref" && typeof inner === "string" && inner.startsWith("#/$defs/")
        ? `#/components/schemas/${rename(inner.slice("#/$defs/".length))}`
        : key === "$ref" && inner === "#"
          ? `#/components/schemas/${prefix}Root`
          : rewrite(inner);
    }
    return out;
  };
  if ($defs && typeof $defs === "object") {
    for (const [name, def] of Object.entries($defs)) components[rename(name)] = rewrite(def) as JsonSchema;
  }
  const result = rewrite(root) as JsonSchema;
  // A schema that refers to itself as "#" is kept whole in components and referenced there.
  if (JSON.stringify(generated).includes('"$ref":"#"')) {
    components[`${prefix}Root`] = result;
    return { $ref: `#/components/schemas/${prefix}Root` };
  }
  return result;
}
