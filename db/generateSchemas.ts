import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DRIZZLE_DIALECTS, type DrizzleDialect } from "./drizzleDialects.ts";
import { docComment, lineComment } from "./sourceComments.ts";
import { fileDocs, tables, typeImports } from "./tables.ts";
import {
  type ColumnSpec,
  columnsIn,
  DIALECTS,
  type Dialect,
  existsIn,
  type ExtraSpec,
  SqlText,
  sqlName,
  type TableSpec,
} from "./tableSpec.ts";

/**
 * Writes drizzle's tables for each dialect (db/schema.ts, db/schema.pg.ts) from the one
 * declaration in db/tables.ts: `bun run db:schemas`. The output depends on the declaration
 * alone, so test/unit/schema-generated.test.ts can hold the checked-in files to it.
 */

/** All db/tables.ts declares. */
export interface SchemaDeclaration {
  readonly tables: Readonly<Record<string, TableSpec>>;
  readonly typeImports: Readonly<Record<string, string>>;
  readonly fileDocs: { readonly [D in Dialect]: string };
}

const DECLARED: SchemaDeclaration = { tables, typeImports, fileDocs };

const GENERATED_NOTE = [
  "// Generated from db/tables.ts by `bun run db:schemas`: do not edit, edit db/tables.ts and run it.",
  "// Generated rather than written because TypeScript cannot type one function body for both",
  "// drizzle dialects (their builders' types differ), and the stores, the replica and the tests rely",
  "// on drizzle's exact types: so each dialect's tables are written out from the one declaration.",
];

/** One dialect's file being written: its forms, and the builders and types it has used so far. */
class SchemaFile {
  readonly builders = new Set<string>();
  readonly jsonTypes: string[] = [];
  usesSql = false;
  readonly form: DrizzleDialect;

  constructor(
    readonly dialect: Dialect,
    readonly declaration: SchemaDeclaration,
  ) {
    this.form = DRIZZLE_DIALECTS[dialect];
  }

  use(builder: string): string {
    this.builders.add(builder);
    return builder;
  }

  sqlText(text: SqlText): string {
    this.usesSql = true;
    const parts = text.strings.flatMap((s, i) => (i < text.columns.length ? [s, `\${t.${text.columns[i]}}`] : [s]));
    return `sql\`${parts.join("")}\``;
  }

  /** Throws unless `table` has the column `key` in this dialect. */
  requireColumn(tableKey: string, key: string, what: string): void {
    const table = this.declaration.tables[tableKey];
    const column = table?.columns[key];
    if (!column || !existsIn(column.facts.only, this.dialect)) throw new Error(`${what}: ${this.dialect} has no column ${tableKey}.${key}`);
  }
}

function renderColumn(file: SchemaFile, tableKey: string, key: string, column: ColumnSpec): string {
  const f = column.facts;
  const { form, dialect } = file;
  const [builder, options] = form.kinds[f.kind];
  let code = `${file.use(builder)}("${sqlName(key)}"${options ? `, ${options}` : ""})`;
  if (f.jsonType !== undefined) {
    code += `.$type<${f.jsonType}>()`;
    file.jsonTypes.push(f.jsonType);
  }
  const primaryKey = f.primaryKey.includes(dialect);
  if (primaryKey) code += form.primaryKey(f.identity);
  else if (f.notNull) code += ".notNull()";
  if (f.unique) code += ".unique()";
  if (f.default !== undefined) {
    const value = typeof f.default === "object" && !(f.default instanceof SqlText) ? f.default[dialect] : f.default;
    if (value instanceof SqlText && value.columns.length > 0) throw new Error(`${tableKey}.${key}: a default names no column`);
    code += `.default(${value instanceof SqlText ? file.sqlText(value) : JSON.stringify(value)})`;
  }
  if (f.references) {
    const { table, column: target, onDelete } = f.references;
    file.requireColumn(table, target, `${tableKey}.${key} references`);
    code += `.references(() => ${table}.${target}${onDelete ? `, { onDelete: "${onDelete}" }` : ""})`;
  }
  if (f.identity) {
    if (form.identity !== undefined) code += form.identity;
    else if (!primaryKey) throw new Error(`${tableKey}.${key}: ${dialect} numbers only a primary key`);
  }
  return code;
}

function renderExtra(file: SchemaFile, tableKey: string, extra: ExtraSpec): string {
  const { kind, name, columns, expression } = extra.facts;
  for (const key of columns) file.requireColumn(tableKey, key, `${tableKey}'s ${name ?? kind}`);
  const refs = columns.map((key) => `t.${key}`).join(", ");
  switch (kind) {
    case "index":
    case "uniqueIndex":
      return `${file.use(kind)}("${name}").on(${refs})`;
    case "primaryKey":
      return `${file.use(kind)}({ columns: [${refs}] })`;
    case "check":
      if (!expression) throw new Error(`${tableKey}'s check ${name} has no expression`);
      return `${file.use(kind)}("${name}", ${file.sqlText(expression)})`;
  }
}

function renderTable(file: SchemaFile, key: string, table: TableSpec): string[] {
  const call = file.use(file.form.table);
  const extras = table.extras.filter((e) => existsIn(e.facts.only, file.dialect));
  const indent = extras.length === 0 ? "  " : "    ";
  const columns = columnsIn(table, file.dialect).flatMap(([columnKey, column]) => [
    ...(column.facts.doc === undefined ? [] : docComment(column.facts.doc, indent)),
    `${indent}${columnKey}: ${renderColumn(file, key, columnKey, column)},`,
  ]);
  const head = table.doc === undefined ? [] : docComment(table.doc, "");
  if (extras.length === 0) return [...head, `export const ${key} = ${call}("${table.sqlName}", {`, ...columns, "});"];
  const extraLines = extras.flatMap((extra) => [
    ...(extra.facts.doc === undefined ? [] : lineComment(extra.facts.doc, "    ")),
    `    ${renderExtra(file, key, extra)},`,
  ]);
  return [...head, `export const ${key} = ${call}(`, `  "${table.sqlName}",`, "  {", ...columns, "  },", "  (t) => [", ...extraLines, "  ],", ");"];
}

/** The `import type` lines for the declared types the file's json columns name. */
function typeImportLines(file: SchemaFile): string[] {
  const byPath = new Map<string, string[]>();
  for (const [name, path] of Object.entries(file.declaration.typeImports)) {
    const named = file.jsonTypes.some((type) => type.split(/\W+/).includes(name));
    if (named) byPath.set(path, [...(byPath.get(path) ?? []), name]);
  }
  return [...byPath].map(([path, names]) => `import type { ${names.sort().join(", ")} } from "${path}";`);
}

/** The source of one dialect's schema file. */
export function generateSchema(dialect: Dialect, declaration: SchemaDeclaration = DECLARED): string {
  const file = new SchemaFile(dialect, declaration);
  const body = Object.entries(declaration.tables).map(([key, table]) => renderTable(file, key, table).join("\n"));
  const imports = [
    ...(file.usesSql ? [`import { sql } from "drizzle-orm";`] : []),
    `import { ${[...file.builders].sort().join(", ")} } from "${file.form.module}";`,
    ...typeImportLines(file),
  ];
  return [[...GENERATED_NOTE, ...imports].join("\n"), docComment(declaration.fileDocs[dialect], "").join("\n"), ...body].join("\n\n") + "\n";
}

/** The repository's root. */
const ROOT = join(import.meta.dir, "..");

/** Each dialect's generated file: its path from the root, what it holds now, and what it should hold. */
export function schemaFiles(): { path: string; current: string; generated: string }[] {
  return DIALECTS.map((dialect) => {
    const path = DRIZZLE_DIALECTS[dialect].file;
    const absolute = join(ROOT, path);
    return { path, current: existsSync(absolute) ? readFileSync(absolute, "utf8") : "", generated: generateSchema(dialect) };
  });
}

if (import.meta.main) {
  for (const { path, current, generated } of schemaFiles()) {
    if (current === generated) console.log(`${path}: unchanged`);
    else {
      writeFileSync(join(ROOT, path), generated);
      console.log(`${path}: written`);
    }
  }
}
