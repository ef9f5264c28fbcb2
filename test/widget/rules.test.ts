/**
 * The widget mirrors server rules instead of bundling zod and canada.json (bundle budget).
 * These tests hold the mirrors to the originals, so a change on one side fails here.
 */
import { describe, expect, test } from "bun:test";
import { z } from "zod";
import canada from "../../src/domain/canada.json" with { type: "json" };
import { QUOTE_LINES as SERVER_LINES } from "../../src/domain/quotes/details.ts";
import { quoteDetailsSchemas } from "../../src/schemas/quoteDetails.ts";
import * as server from "../../src/domain/postalCode.ts";
import type { ProvinceCode } from "../../src/domain/provinces.ts";
import { QUOTE_LINES, quoteFields, type FieldRule } from "../../widget/fields.ts";
import { translator } from "../../widget/i18n.ts";
import * as widget from "../../widget/postalCode.ts";
import { PROVINCES } from "../../widget/provinces.ts";
import { parseField } from "../../widget/validate.ts";

type JsonSchema = {
  type?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  enum?: unknown[];
  anyOf?: { const: unknown }[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

/** The facts a form needs about a field, from the server's JSON Schema. */
function fromSchema(name: string, s: JsonSchema, required: boolean): FieldRule {
  if (s.anyOf) return { name, kind: "choice", required, options: s.anyOf.map((o) => o.const as number) };
  if (s.enum) return { name, kind: "choice", required, options: s.enum as string[] };
  if (s.type === "integer") return { name, kind: "int", required, min: s.minimum!, max: s.maximum! };
  if (s.type === "string") return { name, kind: "text", required, maxLength: s.maxLength! };
  if (s.type === "boolean") return { name, kind: "bool", required };
  if (s.type === "array") {
    return { name, kind: "intList", required, min: s.items!.minimum!, max: s.items!.maximum!, minItems: s.minItems!, maxItems: s.maxItems! };
  }
  throw new Error(`unmapped schema for ${name}: ${JSON.stringify(s)}`);
}

const dates = [new Date("2026-06-01T00:00:00Z"), new Date("2031-01-01T00:00:00Z")];

describe("quote field table = src/schemas/quoteDetails.ts", () => {
  test("same insurance lines", () => {
    expect(QUOTE_LINES.map((l) => l.toLowerCase())).toEqual([...SERVER_LINES]);
  });

  for (const now of dates) {
    test(`same fields, kinds, bounds, options and required flags (${now.getUTCFullYear()})`, () => {
      const schemas = quoteDetailsSchemas(now);
      const table = quoteFields(now);
      for (const line of QUOTE_LINES) {
        const schema = z.toJSONSchema(schemas[line.toLowerCase() as keyof typeof schemas]) as JsonSchema;
        const expected = Object.entries(schema.properties!).map(([name, s]) => fromSchema(name, s, schema.required!.includes(name)));
        expect({ line, fields: table[line] }).toEqual({ line, fields: expected });
      }
    });
  }

  test("boundary values are accepted or refused by both sides alike", () => {
    const now = dates[0]!;
    const schemas = quoteDetailsSchemas(now);
    const t = translator("en");
    for (const line of QUOTE_LINES) {
      const schema = schemas[line.toLowerCase() as keyof typeof schemas].shape as Record<string, z.ZodType>;
      for (const rule of quoteFields(now)[line]) {
        const samples: string[] =
          rule.kind === "int"
            ? [rule.min - 1, rule.min, rule.max, rule.max + 1, 1.5].map(String)
            : rule.kind === "choice"
              ? [...rule.options.map(String), "nope"]
              : rule.kind === "bool"
                ? ["yes", "no"]
                : rule.kind === "text"
                  ? ["Toyota", "x".repeat(61)]
                  : ["34, 36", String(rule.max + 1), Array(11).fill("30").join(",")];
        for (const raw of [...samples, ""]) {
          const parsed = parseField(rule, raw, t, "en");
          const serverOk = schema[rule.name]!.safeParse(parsed.error ? sampleForServer(rule, raw) : parsed.value).success;
          expect({ field: `${line}.${rule.name}`, raw, accepted: !parsed.error }).toEqual({ field: `${line}.${rule.name}`, raw, accepted: serverOk });
        }
      }
    }
  });
});

/** What the visitor typed, as the server would receive it had the widget let it through. */
function sampleForServer(rule: FieldRule, raw: string): unknown {
  if (raw === "") return undefined;
  if (rule.kind === "intList") return raw.split(/[,\s]+/).filter(Boolean).map(Number);
  if (rule.kind === "text" || (rule.kind === "choice" && typeof rule.options[0] === "string")) return raw;
  return Number(raw);
}

describe("provinces and postal codes = src/domain", () => {
  test("same provinces, names and postal letters as canada.json", () => {
    expect(PROVINCES.map((p) => ({ code: p.code, en: p.en, fr: p.fr, letters: [...p.letters] }))).toEqual(
      canada.provinces.map((p) => ({ code: p.code, en: p.en, fr: p.fr, letters: p.postalFirstLetters })),
    );
  });

  test("normalisation agrees on valid, sloppy and invalid codes", () => {
    const samples = ["M5V 3L9", "m5v3l9", " h2x 1y4 ", "X0A 0H0", "X1A 2P5", "W1A 1A1", "Z5V 3L9", "M5V-3L9", "D1A 1A1", "M5V 3L", "K1A 0B1", "", "A1A1A1", "T2P 1J9", "M5V  3L9"];
    for (const s of samples) expect({ s, v: widget.normalizePostalCode(s) }).toEqual({ s, v: server.normalizePostalCode(s) });
  });

  test("province membership agrees for every province and one FSA per city", () => {
    const codes = canada.provinces.flatMap((p) => p.cities.map((c) => `${c.fsa} 1A1`));
    codes.push("X0B 1A1", "X0E 1A1", "X1A 2P5");
    for (const code of codes) {
      for (const p of PROVINCES) {
        expect({ code, p: p.code, ok: widget.postalCodeBelongsTo(code, p.code) }).toEqual({
          code,
          p: p.code,
          ok: server.postalCodeBelongsTo(code, p.code as ProvinceCode),
        });
      }
    }
  });
});
