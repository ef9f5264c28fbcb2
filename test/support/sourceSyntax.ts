import { parse } from "acorn";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/** An ESTree node as acorn gives it; each scanner reads the fields it knows. */
export interface SyntaxNode {
  type: string;
  loc?: { start: { line: number } };
  [key: string]: unknown;
}

const transpiler = new Bun.Transpiler({ loader: "ts", target: "bun", minifyWhitespace: false });

/**
 * Visits every node of every TypeScript file under `dirs` (relative to `root`): types stripped by
 * Bun's transpiler, then parsed by acorn, so a scanner reads syntax, not text. `file` is relative
 * to `root`; line numbers (`node.loc`) are of the transpiled code.
 */
export function visitSource(root: string, dirs: readonly string[], visit: (node: SyntaxNode, file: string) => void): void {
  for (const dir of dirs) {
    for (const path of tsFiles(join(root, dir))) {
      const file = relative(root, path);
      const js = transpiler.transformSync(readFileSync(path, "utf8"));
      walk(parse(js, { ecmaVersion: "latest", sourceType: "module", locations: true }) as unknown as SyntaxNode, (node) => visit(node, file));
    }
  }
}

function walk(node: SyntaxNode, visit: (node: SyntaxNode) => void): void {
  visit(node);
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) for (const child of value) if (child && typeof child.type === "string") walk(child, visit);
    if (value && typeof value === "object" && typeof (value as SyntaxNode).type === "string") walk(value as SyntaxNode, visit);
  }
}

/** The TypeScript files under `dir`, declaration files left out. */
export function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}
