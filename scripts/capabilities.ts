/**
 * Writes the capability table (src/adapters/capabilities.ts) into README.md between its
 * markers: `bun scripts/capabilities.ts`. The contract tests fail while the two differ.
 */
import { capabilityMarkdown } from "../src/adapters/capabilities.ts";

export const START = "<!-- capabilities:start -->";
export const END = "<!-- capabilities:end -->";

if (import.meta.main) {
  const path = new URL("../README.md", import.meta.url);
  const readme = await Bun.file(path).text();
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${START} … ${END} section.`);
  await Bun.write(path, `${readme.slice(0, start + START.length)}\n${capabilityMarkdown()}\n${readme.slice(end)}`);
  console.log("README.md: capability table written.");
}
