import { parse } from "acorn";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

export interface FoundRegex {
  file: string;
  line: number;
  source: string;
  flags: string;
}

export interface RegexScan {
  regexes: FoundRegex[];
  /** `new RegExp(x)` / `RegExp(x)` whose pattern is not a literal: it cannot be checked. */
  dynamic: { file: string; line: number }[];
}

interface Node {
  type: string;
  loc?: { start: { line: number } };
  regex?: { pattern: string; flags: string };
  callee?: Node & { name?: string };
  arguments?: (Node & { value?: unknown; quasis?: { value: { cooked: string } }[]; expressions?: unknown[] })[];
  [key: string]: unknown;
}

const transpiler = new Bun.Transpiler({ loader: "ts", target: "bun", minifyWhitespace: false });

/**
 * Every regular expression written in the TypeScript under `dirs`: regex literals and
 * `new RegExp("…")` with a literal pattern, found by parsing (types stripped by Bun's
 * transpiler, then acorn), not by searching text. Line numbers are of the transpiled code.
 */
export function scanRegexes(root: string, dirs: readonly string[]): RegexScan {
  const scan: RegexScan = { regexes: [], dynamic: [] };
  for (const dir of dirs) {
    for (const path of tsFiles(join(root, dir))) {
      const file = relative(root, path);
      const js = transpiler.transformSync(readFileSync(path, "utf8"));
      const ast = parse(js, { ecmaVersion: "latest", sourceType: "module", locations: true }) as unknown as Node;
      walk(ast, (node) => {
        const line = node.loc?.start.line ?? 0;
        if (node.type === "Literal" && node.regex) scan.regexes.push({ file, line, source: node.regex.pattern, flags: node.regex.flags });
        if ((node.type === "NewExpression" || node.type === "CallExpression") && node.callee?.type === "Identifier" && node.callee.name === "RegExp") {
          const [pattern, flags] = node.arguments ?? [];
          const text = literalText(pattern);
          const flagText = flags === undefined ? "" : literalText(flags);
          if (text === undefined || flagText === undefined) scan.dynamic.push({ file, line });
          else scan.regexes.push({ file, line, source: text, flags: flagText });
        }
      });
    }
  }
  return scan;
}

function literalText(node: (Node & { value?: unknown; quasis?: { value: { cooked: string } }[]; expressions?: unknown[] }) | undefined): string | undefined {
  if (!node) return undefined;
  if (node.type === "Literal" && typeof node.value === "string") return node.value;
  if (node.type === "TemplateLiteral" && node.expressions?.length === 0) return node.quasis?.[0]?.value.cooked;
  return undefined;
}

function walk(node: Node, visit: (node: Node) => void): void {
  visit(node);
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) for (const child of value) if (child && typeof child.type === "string") walk(child, visit);
    if (value && typeof value === "object" && typeof (value as Node).type === "string") walk(value as Node, visit);
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
