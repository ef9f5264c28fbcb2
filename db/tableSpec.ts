/**
 * The words db/tables.ts declares the tables in, once for both dialects. It is plain data:
 * db/generateSchemas.ts writes drizzle's SQLite tables (db/schema.ts) and PostgreSQL tables
 * (db/schema.pg.ts) from it. Generated rather than built by one generic function, because
 * TypeScript cannot type one function body for both drizzle dialects (their builders' types
 * differ) and the stores, the replica and the tests rely on drizzle's exact types.
 *
 * ```ts
 * notes: table("notes", {
 *   doc: "What a workspace wrote down.",
 *   columns: {
 *     id: int().primaryKey().identity(),
 *     workspaceId: text().notNull().references("workspaces.id", { onDelete: "cascade" }),
 *     tags: json("string[]").notNull().default(sql`'[]'`),
 *     createdAt: millis().notNull().doc("When it was written."),
 *   },
 *   extras: (t) => [index("notes_workspace").on(t.workspaceId, t.createdAt)],
 * }),
 * ```
 *
 * A column's SQL name is its key in snake case (`createdAt` → created_at, `rating1` → rating_1).
 * | word       | SQLite                      | PostgreSQL                   |
 * | ---------- | --------------------------- | ---------------------------- |
 * | text()     | text                        | text                         |
 * | int()      | integer                     | integer                      |
 * | bigint()   | integer                     | bigint, read as a JS number  |
 * | millis()   | bigint(): ms since the epoch (UTC)                         |
 * | real()     | real                        | double precision             |
 * | bool()     | integer, boolean mode       | boolean                      |
 * | json(type) | text, JSON mode             | jsonb                        |
 * | identity() | AUTOINCREMENT (primary key) | GENERATED ALWAYS AS IDENTITY |
 *
 * What truly differs between the dialects is said where it differs, with `only`: a column or
 * a table's extra that one dialect alone has (`.only("pg")`), a primary key only one has
 * (`.primaryKey({ only: "pg" })`), a default written per dialect (`{ sqlite: …, pg: … }`).
 */

export type Dialect = "sqlite" | "pg";
export const DIALECTS: readonly Dialect[] = ["sqlite", "pg"];

/** Where a part of the schema exists: in both dialects (`undefined`) or in one alone. */
export type Only = Dialect | undefined;

/** Whether a part declared with this `only` exists in the dialect. */
export function existsIn(only: Only, dialect: Dialect): boolean {
  return only === undefined || only === dialect;
}

/** A column named inside an index, a check or a `sql` expression (the `t` of `extras`). */
export interface ColumnRef {
  readonly key: string;
}

/**
 * SQL text naming columns, written as drizzle's sql`…` will hold it: sql`${t.rating} between 1
 * and 5` becomes sql`${t.rating} between 1 and 5` in each generated file.
 */
export class SqlText {
  constructor(
    /** The literal parts, as written in the source (raw). */
    readonly strings: readonly string[],
    /** The keys of the columns between them. */
    readonly columns: readonly string[],
  ) {}
}

export function sql(strings: TemplateStringsArray, ...columns: readonly ColumnRef[]): SqlText {
  return new SqlText(strings.raw, columns.map((c) => c.key));
}

export type ColumnKind = "text" | "int" | "bigint" | "real" | "bool" | "json";
export type DefaultValue = string | number | boolean | SqlText;
/** A default, the same in both dialects or written for each. */
export type ColumnDefault = DefaultValue | { readonly [D in Dialect]: DefaultValue };
export type OnDelete = "cascade" | "restrict" | "no action" | "set null" | "set default";

/** A foreign key: the export key of the table and the key of its column (`"workspaces.id"`). */
export interface Reference {
  readonly table: string;
  readonly column: string;
  readonly onDelete: OnDelete | undefined;
}

export interface ColumnFacts<O extends Only> {
  readonly kind: ColumnKind;
  /** The TypeScript type of a json column's value, as source text (`"string[] | null"`). */
  readonly jsonType: string | undefined;
  readonly only: O;
  readonly notNull: boolean;
  /** The dialects in which it is the primary key: none, both, or one. */
  readonly primaryKey: readonly Dialect[];
  readonly identity: boolean;
  readonly unique: boolean;
  readonly default: ColumnDefault | undefined;
  readonly references: Reference | undefined;
  readonly doc: string | undefined;
}

/**
 * One column, made by text(), int()… and refined by chaining; each step returns a new spec.
 * `O` records, for the compiler too, the one dialect that alone has the column.
 */
export class ColumnSpec<O extends Only = Only> {
  constructor(readonly facts: ColumnFacts<O>) {}

  notNull(): ColumnSpec<O> {
    return this.with({ notNull: true });
  }

  /** The primary key (not null), in both dialects or, with `only`, in one. */
  primaryKey(options?: { only: Dialect }): ColumnSpec<O> {
    return this.with({ primaryKey: options ? [options.only] : DIALECTS });
  }

  /** Numbered by the database: SQLite's AUTOINCREMENT (on an integer primary key), PostgreSQL's identity. */
  identity(): ColumnSpec<O> {
    return this.with({ identity: true });
  }

  unique(): ColumnSpec<O> {
    return this.with({ unique: true });
  }

  default(value: ColumnDefault): ColumnSpec<O> {
    return this.with({ default: value });
  }

  /** A foreign key to `"table.column"`, both named by their keys in db/tables.ts. */
  references(target: `${string}.${string}`, options?: { onDelete: OnDelete }): ColumnSpec<O> {
    const [table = "", column = ""] = target.split(".");
    return this.with({ references: { table, column, onDelete: options?.onDelete } });
  }

  /** The column's documentation, written into both generated files as its JSDoc. */
  doc(text: string): ColumnSpec<O> {
    return this.with({ doc: text });
  }

  /** Only this dialect has the column. */
  only<D extends Dialect>(dialect: D): ColumnSpec<D> {
    return new ColumnSpec({ ...this.facts, only: dialect });
  }

  private with(change: Partial<Omit<ColumnFacts<O>, "only">>): ColumnSpec<O> {
    return new ColumnSpec({ ...this.facts, ...change });
  }
}

function column(kind: ColumnKind, jsonType?: string): ColumnSpec<undefined> {
  return new ColumnSpec({
    kind,
    jsonType,
    only: undefined,
    notNull: false,
    primaryKey: [],
    identity: false,
    unique: false,
    default: undefined,
    references: undefined,
    doc: undefined,
  });
}

export const text = () => column("text");
export const int = () => column("int");
export const bigint = () => column("bigint");
/** A time: integer milliseconds since the epoch (UTC), a bigint(). */
export const millis = bigint;
export const real = () => column("real");
export const bool = () => column("bool");
/** JSON holding `type`, TypeScript source text naming only global types or db/tables.ts's typeImports. */
export const json = (type: string) => column("json", type);

export type ExtraKind = "index" | "uniqueIndex" | "primaryKey" | "check";

export interface ExtraFacts {
  readonly kind: ExtraKind;
  /** The index's or check's name; a composite primary key's is drizzle's. */
  readonly name: string | undefined;
  /** The keys of the columns it covers, in order. */
  readonly columns: readonly string[];
  readonly expression: SqlText | undefined;
  readonly only: Only;
  /** Why it is there, written above it in the generated files as a line comment. */
  readonly doc: string | undefined;
}

/** An index, composite primary key or check of a table, returned by its `extras`. */
export class ExtraSpec {
  constructor(readonly facts: ExtraFacts) {}

  only(dialect: Dialect): ExtraSpec {
    return new ExtraSpec({ ...this.facts, only: dialect });
  }

  doc(text: string): ExtraSpec {
    return new ExtraSpec({ ...this.facts, doc: text });
  }
}

function extra(kind: ExtraKind, name: string | undefined, columns: readonly string[], expression?: SqlText): ExtraSpec {
  return new ExtraSpec({ kind, name, columns, expression, only: undefined, doc: undefined });
}

const keys = (columns: readonly ColumnRef[]) => columns.map((c) => c.key);

export const index = (name: string) => ({ on: (...columns: ColumnRef[]) => extra("index", name, keys(columns)) });
export const uniqueIndex = (name: string) => ({ on: (...columns: ColumnRef[]) => extra("uniqueIndex", name, keys(columns)) });
/** A primary key over several columns (one column says `.primaryKey()` itself). */
export const primaryKey = (...columns: ColumnRef[]) => extra("primaryKey", undefined, keys(columns));
export const check = (name: string, expression: SqlText) => extra("check", name, expression.columns, expression);

export type Columns = Readonly<Record<string, ColumnSpec>>;
export type ColumnRefs<C extends Columns> = { readonly [K in keyof C]: ColumnRef };

export interface TableSpec<C extends Columns = Columns> {
  readonly sqlName: string;
  /** The table's documentation, its JSDoc in both generated files. */
  readonly doc: string | undefined;
  readonly columns: C;
  readonly extras: readonly ExtraSpec[];
}

/** A table: its SQL name, columns in order, and its indexes, composite primary key and checks. */
export function table<C extends Columns>(
  sqlName: string,
  parts: { doc?: string; columns: C; extras?: (t: ColumnRefs<C>) => readonly ExtraSpec[] },
): TableSpec<C> {
  // Cast: the object is built from C's own keys, one ColumnRef each, which is what ColumnRefs<C> says.
  const refs = Object.fromEntries(Object.keys(parts.columns).map((key) => [key, { key }])) as ColumnRefs<C>;
  return { sqlName, doc: parts.doc, columns: parts.columns, extras: parts.extras?.(refs) ?? [] };
}

/** The SQL name of the column with this key: snake case, a digit run its own word (rating1 → rating_1). */
export function sqlName(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`).replace(/(?<=[a-z])(?=\d)/g, "_");
}

/** The table's columns that exist in the dialect, in order. */
export function columnsIn(table: TableSpec, dialect: Dialect): [key: string, column: ColumnSpec][] {
  return Object.entries(table.columns).filter(([, c]) => existsIn(c.facts.only, dialect));
}

/** The keys of the table's columns that only dialect D has (for comparing row types across dialects). */
export type OnlyIn<T extends TableSpec, D extends Dialect> = {
  [K in keyof T["columns"]]: T["columns"][K] extends ColumnSpec<D> ? K : never;
}[keyof T["columns"]];
