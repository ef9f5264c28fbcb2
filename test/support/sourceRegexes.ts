import { visitSource, type SyntaxNode } from "./sourceSyntax.ts";

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

interface Node extends SyntaxNode {
  regex?: { pattern: string; flags: string };
  callee?: Node & { name?: string };
  arguments?: (Node & { value?: unknown; quasis?: { value: { cooked: string } }[]; expressions?: unknown[] })[];
}

/**
 * Every regular expression written in the TypeScript under `dirs`: regex literals and
 * `new RegExp("…")` with a literal pattern, found by parsing (types stripped by Bun's
 * transpiler, then acorn), not by searching text. Line numbers are of the transpiled code.
 */
export function scanRegexes(root: string, dirs: readonly string[]): RegexScan {
  const scan: RegexScan = { regexes: [], dynamic: [] };
  visitSource(root, dirs, (syntax, file) => {
    const node = syntax as Node;
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
  return scan;
}

function literalText(node: (Node & { value?: unknown; quasis?: { value: { cooked: string } }[]; expressions?: unknown[] }) | undefined): string | undefined {
  if (!node) return undefined;
  if (node.type === "Literal" && typeof node.value === "string") return node.value;
  if (node.type === "TemplateLiteral" && node.expressions?.length === 0) return node.quasis?.[0]?.value.cooked;
  return undefined;
}
