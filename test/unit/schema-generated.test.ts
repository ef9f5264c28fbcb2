import { describe, expect, test } from "bun:test";
import { generateSchema, type SchemaDeclaration, schemaFiles } from "../../db/generateSchemas.ts";
import { fileDocs, typeImports } from "../../db/tables.ts";
import { index, int, table, text } from "../../db/tableSpec.ts";

/**
 * db/schema.ts and db/schema.pg.ts are written by `bun run db:schemas` from db/tables.ts; a hand
 * edit, or a change to db/tables.ts without regenerating, leaves them stale, and this fails.
 */

/** Where two texts part: the first line that differs, with its number. */
function firstDifference(current: string, generated: string): string {
  const a = current.split("\n");
  const b = generated.split("\n");
  const line = a.findIndex((text, i) => text !== b[i]);
  const at = line === -1 ? a.length : line;
  return `line ${at + 1}:\n  checked in: ${a[at] ?? "(end of file)"}\n  generated:  ${b[at] ?? "(end of file)"}`;
}

describe("the generated schema files", () => {
  test("are, byte for byte, what db/tables.ts generates", () => {
    const files = schemaFiles();
    expect(files.map((f) => f.path)).toEqual(["db/schema.ts", "db/schema.pg.ts"]);
    const stale = files
      .filter((f) => f.current !== f.generated)
      .map((f) => `${f.path} is not what db/tables.ts generates: run \`bun run db:schemas\` (${firstDifference(f.current, f.generated)})`);
    if (stale.length > 0) throw new Error(stale.join("\n"));
  });

  test("the difference named is the first line that differs", () => {
    expect(firstDifference("a\nb\nc", "a\nB\nc")).toBe("line 2:\n  checked in: b\n  generated:  B");
    expect(firstDifference("a", "a\nb")).toBe("line 2:\n  checked in: (end of file)\n  generated:  b");
  });
});

describe("the generator refuses a declaration drizzle could not hold", () => {
  const declaring = (tables: SchemaDeclaration["tables"]): SchemaDeclaration => ({ tables, typeImports, fileDocs });

  test("a foreign key to a column that does not exist", () => {
    const notes = table("notes", { columns: { id: int().primaryKey(), authorId: text().references("authors.id") } });
    expect(() => generateSchema("sqlite", declaring({ notes }))).toThrow("notes.authorId references: sqlite has no column authors.id");
  });

  test("an index over a column the dialect does not have", () => {
    const notes = table("notes", {
      columns: { id: int().primaryKey(), seq: int().notNull().only("pg") },
      extras: (t) => [index("notes_seq").on(t.seq)],
    });
    expect(generateSchema("pg", declaring({ notes }))).toContain(`index("notes_seq").on(t.seq)`);
    expect(() => generateSchema("sqlite", declaring({ notes }))).toThrow("sqlite has no column notes.seq");
  });

  test("SQLite numbering a column that is not its primary key", () => {
    const notes = table("notes", { columns: { id: text().primaryKey(), seq: int().notNull().identity() } });
    expect(generateSchema("pg", declaring({ notes }))).toContain(`seq: integer("seq").notNull().generatedAlwaysAsIdentity(),`);
    expect(() => generateSchema("sqlite", declaring({ notes }))).toThrow("notes.seq: sqlite numbers only a primary key");
  });
});
