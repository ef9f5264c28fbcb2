import { visitSource, type SyntaxNode } from "./sourceSyntax.ts";

/** A field message written as a bare literal where its French should be declared too. */
export interface BareMessage {
  file: string;
  line: number;
  /** What holds it: `error:` option, requiredOr(…), addIssue's message, an invalidInput problem. */
  where: string;
  text: string;
}

type Node = SyntaxNode;
type Property = Node & { key: Node & { name?: string; value?: unknown }; value: Node };

const isText = (node: Node | undefined): boolean => node?.type === "TemplateLiteral" || (node?.type === "Literal" && typeof node.value === "string");
const keyName = (p: Property) => p.key.name ?? (typeof p.key.value === "string" ? p.key.value : undefined);
const textOf = (node: Node) =>
  node.type === "Literal" ? String(node.value) : ((node.quasis as { value: { cooked: string } }[]).map((q) => q.value.cooked).join("${…}"));

/**
 * Every field message under `dirs` written as a string or template literal without its French,
 * found by parsing (types stripped by Bun's transpiler, then acorn), not by searching text:
 * - an `error:` option whose value is a literal (it should be `said(en, fr)`);
 * - `requiredOr(literal)` (the complaint should be `said(en, fr)`);
 * - an object with a literal `message`, or one made by a call or read from a result, and no
 *   French beside it (`params` on an addIssue, `fr` on an invalidInput problem). Line numbers are
 *   of the transpiled code.
 */
export function bareFieldMessages(root: string, dirs: readonly string[]): BareMessage[] {
  const found: BareMessage[] = [];
  visitSource(root, dirs, (node, file) => {
    const line = node.loc?.start.line ?? 0;
    if (node.type === "CallExpression") {
      const callee = node.callee as Node & { name?: string };
      const [first] = (node.arguments as Node[]) ?? [];
      if (callee.type === "Identifier" && callee.name === "requiredOr" && isText(first)) found.push({ file, line, where: "requiredOr", text: textOf(first!) });
    }
    if (node.type !== "ObjectExpression") return;
    const properties = (node.properties as Property[]).filter((p) => p.type === "Property");
    for (const p of properties) {
      if (keyName(p) === "error" && isText(p.value)) found.push({ file, line, where: "error:", text: textOf(p.value) });
    }
    const message = properties.find((p) => keyName(p) === "message");
    const hasPath = properties.some((p) => keyName(p) === "path");
    const hasCode = properties.some((p) => keyName(p) === "code");
    const hasFrench = properties.some((p) => keyName(p) === "params" || keyName(p) === "fr");
    if (message && isText(message.value) && (hasPath || hasCode) && !hasFrench) found.push({ file, line, where: "message:", text: textOf(message.value) });
    // A message made by a call or read from a result (unknownProvinceMessage(text), result.message)
    // is made of outside input: it must carry its French (a constant, said(…) or `a + got(x)` may not).
    const made = message?.value.type === "MemberExpression" || (message?.value.type === "CallExpression" && (message.value.callee as Node & { name?: string }).name !== "said");
    if (message && made && (hasPath || hasCode) && !hasFrench) found.push({ file, line, where: "message:", text: `(${message.value.type})` });
  });
  return found;
}
