/** Prints a script's opening doc comment (its usage) and exits, when --help was given. */
export async function printUsageIfAsked(asked: boolean | undefined, scriptPath: string): Promise<void> {
  if (!asked) return;
  console.log((await Bun.file(scriptPath).text()).match(/\/\*\*([\s\S]*?)\*\//)?.[1]?.replace(/^ \* ?/gm, ""));
  process.exit(0);
}
