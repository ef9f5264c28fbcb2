import { describe, expect, test } from "bun:test";
import { join, relative } from "node:path";
import { sourceImports, type SourceImport } from "../support/sourceImports.ts";
import { tsFiles } from "../support/sourceSyntax.ts";

const ROOT = join(import.meta.dir, "../..");

/**
 * The floors of src/, from the ground up: a file imports its own floor and the floors below it,
 * never one above. The rules are the team's (imports point down: adapters → router →
 * domain/storage; the domain imports nothing of ours above it; nothing below the adapters knows
 * a URL or a status code), and each floor is placed where its imports put it:
 * - the domain is pure rules, and `schemas` the shapes built on them (zod, and db/'s drizzle
 *   tables and migrations, which every dialect's storage reads);
 * - `importing` reads directory files (CSV, NDJSON, JSON) into validated records with the
 *   schemas' shapes: it knows no store, so a writer of any dialect above it consumes them;
 * - `tools` know nothing of brokers: the bounded caches and the log;
 * - auth (key format, scopes, rate limits, admission) sits below storage: the key store hashes
 *   and checks keys with auth's helpers, and admission names only what it needs of a store;
 * - storage is four floors of its own: what both dialects share (fault words, fault episodes,
 *   the versioned cache, the executor port every store is written against), then SQLite's
 *   plumbing, then the in-memory search index over it,
 *   then the stores — each written once for both dialects — with pg/ (PostgreSQL's pool,
 *   executor and replica) and ports.ts, the stores as the floors above hold them;
 * - config reads settings (its defaults come from auth and pg/), ops keeps the operator's
 *   instruments (readiness, drain, backup, counters), and services.ts bundles the stores, limits
 *   and instruments into the one context every procedure gets;
 * - router, adapters, server as the team's rule has them; app.ts composes the server with the
 *   demo data (demo/), and the CLI (cli/, main.ts) starts it all.
 * A new folder or top-level file must be placed here: the test fails until it is.
 */
const FLOORS: readonly (readonly [floor: string, paths: readonly string[]])[] = [
  ["domain", ["src/domain/"]],
  ["schemas", ["src/schemas/", "db/schema.ts", "db/schema.pg.ts", "db/migrations.ts", "db/migrationsPg.ts"]],
  ["importing", ["src/importing/"]],
  ["tools", ["src/cache/", "src/log.ts", "src/logOutput.ts"]],
  ["auth", ["src/auth/"]],
  ["storage: both dialects' basics", ["src/storage/storageFault.ts", "src/storage/faultEpisodes.ts", "src/storage/versionedCache.ts", "src/storage/storableText.ts", "src/storage/executor.ts"]],
  ["storage: sqlite", ["src/storage/sqlite/"]],
  ["storage: search", ["src/storage/search/"]],
  ["storage: stores", ["src/storage/stores/", "src/storage/pg/", "src/storage/ports.ts"]],
  ["config", ["src/config.ts"]],
  ["ops", ["src/ops/"]],
  ["services", ["src/services.ts"]],
  ["router", ["src/router/"]],
  ["adapters", ["src/adapters/"]],
  ["server", ["src/server.ts"]],
  ["app", ["src/app.ts", "src/demo/"]],
  ["cli", ["src/cli/", "src/main.ts"]],
];

/** What src/ may import from outside it: db/'s tables and migrations, and the package's own manifest. */
const OUTSIDE_SRC = ["db/schema.ts", "db/schema.pg.ts", "db/migrations.ts", "db/migrationsPg.ts", "package.json"];

/**
 * Imports that break a rule and stay, each with its reason. An entry that no longer matches an
 * import fails the test: a fixed exception is taken off this list.
 */
const EXCEPTIONS: readonly { from: string; to: string; why: string }[] = [
  {
    // tRPC takes the error formatter where the router is created (initTRPC.create), so the
    // wording of the tRPC surface's errors is named by the router. Moving it would need the
    // router built by the adapter (a tRPC-shaped change to every procedure's import of `t`).
    from: "src/router/trpc.ts",
    to: "src/adapters/trpc/errorFormatter.ts",
    why: "tRPC's errorFormatter is given to initTRPC, in the router",
  },
  {
    // app.ts composes the server: it makes the ledger of responses in flight, hands it to
    // startServer and waits on it at stop (graceful shutdown). The server owning it and
    // handing app a view of it would end this; that changes startServer's signature.
    from: "src/app.ts",
    to: "src/adapters/http/inFlight.ts",
    why: "graceful stop waits on the server's in-flight responses, made in app.ts",
  },
  {
    // Only when running from source, never in the executable (a computed specifier keeps the
    // bundler out): the widget is built on the fly from widget/ by the build script.
    from: "src/adapters/static/embeddedAssets.ts",
    to: "scripts/build-widget.ts",
    why: "from source, the widget is built on first request by the build script",
  },
];

const imports = sourceImports(ROOT, ["src", "db"]);
const inSrc = imports.filter((i) => i.from.startsWith("src/"));

/** The floor a path stands on: the longest matching prefix wins. Undefined for a path no floor names. */
function floorOf(path: string): number | undefined {
  let best: { floor: number; length: number } | undefined;
  FLOORS.forEach(([, paths], floor) => {
    for (const prefix of paths) {
      const matches = prefix.endsWith("/") ? path.startsWith(prefix) : path === prefix;
      if (matches && (!best || prefix.length > best.length)) best = { floor, length: prefix.length };
    }
  });
  return best?.floor;
}

const excepted = (i: SourceImport) => EXCEPTIONS.some((e) => e.from === i.from && e.to === i.to);
const describeImport = (i: SourceImport) => `${i.from}:${i.line} → ${i.to}`;

/** The imports that run up a floor, in words. */
function upward(list: readonly SourceImport[]): string[] {
  return list
    .filter((i) => {
      const from = floorOf(i.from);
      const to = floorOf(i.to);
      return from !== undefined && to !== undefined && to > from;
    })
    .map((i) => `${describeImport(i)} (${FLOORS[floorOf(i.from)!]![0]} imports ${FLOORS[floorOf(i.to)!]![0]})`);
}

/** Import cycles between files, each as the files in it (Tarjan's strongly connected components). */
function cycles(list: readonly SourceImport[]): string[][] {
  const edges = new Map<string, string[]>();
  for (const i of list) edges.set(i.from, [...(edges.get(i.from) ?? []), i.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const file of edges.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe("imports point down a floor, never up", () => {
  test("the scan reads the imports of src/ and db/, type-only ones too", () => {
    expect(inSrc.length).toBeGreaterThan(500);
    const has = (from: string, to: string) => imports.some((i) => i.from === from && i.to === to);
    expect(has("src/server.ts", "src/adapters/rest/restHandler.ts")).toBe(true);
    expect(has("src/router/trpc.ts", "src/auth/admitRequest.ts")).toBe(true); // `import type`
    expect(has("src/domain/provinces.ts", "src/domain/canada.json")).toBe(true);
  });

  test("every file of src/ stands on a floor", () => {
    const files = tsFiles(join(ROOT, "src")).map((path) => relative(ROOT, path));
    expect(files.length).toBeGreaterThan(200);
    expect(files.filter((path) => floorOf(path) === undefined)).toEqual([]);
  });

  test("the check catches an import up a floor, and a cycle", () => {
    expect(upward([{ from: "src/domain/text.ts", to: "src/storage/ports.ts", line: 1 }])).toHaveLength(1);
    expect(upward([{ from: "src/storage/sqlite/database.ts", to: "src/storage/search/searchIndex.ts", line: 1 }])).toHaveLength(1);
    expect(cycles([{ from: "a", to: "b", line: 1 }, { from: "b", to: "a", line: 1 }])).toEqual([["a", "b"]]);
  });

  test("no import in src/ runs up a floor", () => {
    expect(upward(inSrc.filter((i) => !excepted(i)))).toEqual([]);
  });

  test("nothing imports an adapter but the server (and the adapters themselves)", () => {
    const intoAdapters = inSrc.filter((i) => i.to.startsWith("src/adapters/") && !i.from.startsWith("src/adapters/") && i.from !== "src/server.ts");
    expect(intoAdapters.filter((i) => !excepted(i)).map(describeImport)).toEqual([]);
  });

  test("src/ imports nothing outside it but db/'s tables and migrations (no seed code, no scripts)", () => {
    const outside = inSrc.filter((i) => !i.to.startsWith("src/") && !OUTSIDE_SRC.includes(i.to));
    expect(outside.filter((i) => !excepted(i)).map(describeImport)).toEqual([]);
  });

  test("db/ imports nothing of src/ but the domain (the tables' column types)", () => {
    const intoSrc = imports.filter((i) => i.from.startsWith("db/") && i.to.startsWith("src/") && !i.to.startsWith("src/domain/"));
    expect(intoSrc.map(describeImport)).toEqual([]);
  });

  test("there is no import cycle in src/", () => {
    expect(cycles(inSrc)).toEqual([]);
  });

  test("every exception still names an import that exists", () => {
    const stale = EXCEPTIONS.filter((e) => !imports.some((i) => i.from === e.from && i.to === e.to));
    expect(stale).toEqual([]);
  });
});
