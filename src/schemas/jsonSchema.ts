import { z } from "zod";

type ToJsonSchemaOptions = NonNullable<Parameters<typeof z.toJSONSchema>[1]>;

/**
 * JSON Schema of a zod schema, for every place that publishes one (MCP tool schemas, the
 * OpenAPI document, quote details docs). zod leaves `default` out when the defaulted schema
 * is a pipe (our whole-number parameters preprocess query-string text), so a client would
 * not learn that `limit` defaults to 20: the override writes every default back in.
 */
export function toJsonSchema(schema: z.ZodType, options: ToJsonSchemaOptions & { io: "input" | "output" }) {
  return z.toJSONSchema(schema, {
    ...options,
    override: (ctx) => {
      const def = ctx.zodSchema._zod.def as { type: string; defaultValue?: unknown };
      if (def.type === "default" && ctx.jsonSchema.default === undefined && options.io === "input") {
        ctx.jsonSchema.default = def.defaultValue as never;
      }
    },
  });
}
