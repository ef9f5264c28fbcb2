import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = join(import.meta.dir, "../..");

/**
 * What `broker-directory serve` loads before it knows its database: the modules reached from
 * src/main.ts and the serve command by imports that run (Bun's transpiler drops `import type`;
 * an `import()` runs only when its line does, so it is not followed). An instance on SQLite must
 * not load PostgreSQL's stack (postgres.js, drizzle's postgres-js driver, db/schema.pg.ts and
 * what they pull in): app.ts loads it only for DATABASE_URL, main.ts loads only the command
 * that runs. Loaded and never called, that code held ~7 MB of the process (performance page).
 */
const transpiler = new Bun.Transpiler({ loader: "ts" });

/** Every file of ours reached from `entries` by imports that run, and the packages they import. */
function loadedAtStart(entries: readonly string[]): { files: Set<string>; packages: Map<string, string> } {
  const files = new Set<string>();
  const packages = new Map<string, string>(); // package → the first file of ours importing it
  const todo = entries.map((entry) => join(ROOT, entry));
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    if (!/\.tsx?$/.test(file)) continue;
    const source = readFileSync(file, "utf8").replace(/^#!.*/, "");
    for (const { path, kind } of transpiler.scanImports(source)) {
      if (kind === "dynamic-import") continue;
      if (path.startsWith(".")) {
        const target = resolve(dirname(file), path);
        if (existsSync(target)) todo.push(target);
        else throw new Error(`${relative(ROOT, file)} imports ${path}, which does not exist`);
      } else if (!packages.has(path)) packages.set(path, relative(ROOT, file));
    }
  }
  return { files, packages };
}

/** The packages and files of PostgreSQL's stack. */
const POSTGRES_PACKAGES = ["postgres", "drizzle-orm/postgres-js", "drizzle-orm/pg-core"];
const POSTGRES_FILES = ["db/schema.pg.ts", "db/migrationsPg.ts"];

function postgresIn(loaded: ReturnType<typeof loadedAtStart>): string[] {
  const packages = POSTGRES_PACKAGES.filter((name) => loaded.packages.has(name)).map((name) => `${name} (imported by ${loaded.packages.get(name)})`);
  const files = POSTGRES_FILES.filter((path) => loaded.files.has(join(ROOT, path)));
  return [...packages, ...files];
}

describe("an instance on SQLite loads no PostgreSQL code", () => {
  const serve = loadedAtStart(["src/main.ts", "src/cli/serveCommand.ts"]);

  test("the walk reaches the whole server (a walk that stops early would prove nothing)", () => {
    const reached = (path: string) => serve.files.has(join(ROOT, path));
    expect(reached("src/server.ts")).toBe(true);
    expect(reached("src/app.ts")).toBe(true);
    expect(reached("src/adapters/mcp/mcpHandler.ts")).toBe(true);
    expect(reached("src/storage/stores/importBatch.ts")).toBe(true);
    expect(serve.packages.has("drizzle-orm/bun-sqlite")).toBe(true);
    expect(serve.files.size).toBeGreaterThan(250);
  });

  test("the walk finds PostgreSQL's stack where it is loaded (a check that cannot fail would prove nothing)", () => {
    expect(postgresIn(loadedAtStart(["src/storage/pg/sharedStorage.ts"]))).toContain("db/schema.pg.ts");
    expect(postgresIn(loadedAtStart(["src/storage/pg/pgDatabase.ts"])).some((found) => found.startsWith("postgres "))).toBe(true);
    expect(postgresIn(loadedAtStart(["src/cli/seedCommand.ts"])).length).toBeGreaterThan(0);
  });

  test("serve, before it reads DATABASE_URL, imports none of it", () => {
    expect(postgresIn(serve)).toEqual([]);
  });
});
