import { readdirSync } from "node:fs";
import { join } from "node:path";

export const ROOT = join(import.meta.dir, "../..");
export const MANUAL_DIR = join(ROOT, "src/adapters/docs/manual");

/** The opening fence that marks a block a test runs (README and manual; see README "Runnable examples"). */
export const RUNNABLE_FENCE = "```sh runnable";

export interface RunnableBlock {
  /** file:line of the opening fence, for the failure message. */
  where: string;
  script: string;
}

/** The README and every page of the manual, as [path relative to the root, text]. */
export async function documents(): Promise<[string, string][]> {
  const paths = ["README.md", ...readdirSync(MANUAL_DIR).filter((f) => f.endsWith(".md")).sort().map((f) => `src/adapters/docs/manual/${f}`)];
  return Promise.all(paths.map(async (path): Promise<[string, string]> => [path, await Bun.file(join(ROOT, path)).text()]));
}

/** Every ```sh runnable block of a Markdown text, read line by line (fences open and close at a line's start). */
export function runnableBlocks(path: string, text: string): RunnableBlock[] {
  const blocks: RunnableBlock[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trimEnd() !== RUNNABLE_FENCE) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !lines[i]!.startsWith("```"); i++) body.push(lines[i]!);
    blocks.push({ where: `${path}:${start + 1}`, script: body.join("\n") });
  }
  return blocks;
}
