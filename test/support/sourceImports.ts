import { readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { tsFiles } from "./sourceSyntax.ts";

/** One import between two files of the repository, as paths from its root (`src/app.ts`). */
export interface SourceImport {
  from: string;
  to: string;
  line: number;
}

// Read from the source text, not from Bun's transpiler: it drops `import type`, and a type
// imported up a floor ties the floors together as much as a value does. Static imports and
// re-exports end in `from "…"` on a line that starts with import, export or the `}` closing
// a list; `import "…"` and `import("…")` (also `typeof import("…")`) anywhere. A line of a
// comment starts with `*` or `//`, so an example in a comment is not taken for an import.
const STATIC = /^[ \t]*(?:import|export|\})[^\n]*?\bfrom[ \t]*["'](\.{1,2}\/[^"'\n]+)["']/gm;
const BARE_OR_DYNAMIC = /\bimport[ \t]*\(?[ \t]*["'](\.{1,2}\/[^"'\n]+)["']/g;

/** Every relative import of the TypeScript files under `dirs` (package imports are left out). */
export function sourceImports(root: string, dirs: readonly string[]): SourceImport[] {
  const found: SourceImport[] = [];
  for (const dir of dirs) {
    for (const path of tsFiles(join(root, dir))) {
      const text = readFileSync(path, "utf8");
      const from = relative(root, path);
      for (const pattern of [STATIC, BARE_OR_DYNAMIC]) {
        for (const match of text.matchAll(pattern)) {
          const to = normalize(join(dirname(from), match[1]!));
          const line = text.slice(0, match.index).split("\n").length;
          found.push({ from, to, line });
        }
      }
    }
  }
  return found;
}
