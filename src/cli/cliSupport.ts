import { parseArgs, type ParseArgsConfig } from "node:util";
import { escapeControls, hasControlCharacters } from "../domain/text.ts";

/** A mistake in how a command was called: printed without a stack, exit code 2. */
export class UsageError extends Error {}

/** A well-formed command the data refuses (a workspace at its maximum of keys): printed without a stack, exit code 1. */
export class RefusedError extends Error {}

type Options = NonNullable<ParseArgsConfig["options"]>;

/**
 * `util.parseArgs` in strict mode, with its errors turned into UsageErrors that end with a
 * pointer to the command's --help.
 */
export function parseCommandArgs<O extends Options>(args: string[], options: O, command: string, positionals = false) {
  try {
    return parseArgs({ args, options: { ...options, help: { type: "boolean", short: "h" } }, strict: true, allowPositionals: positionals });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(`${message}\nRun '${command} --help' for usage.`);
  }
}

/** A name given on the command line (a workspace, a key's name): one line, no control characters, as the API requires. */
export function plainFlag(value: string | undefined, flag: string): string | undefined {
  if (value !== undefined && hasControlCharacters(value)) {
    throw new UsageError(`--${flag} must be one line of text without control characters (got ${escapeControls(JSON.stringify(value))}).`);
  }
  return value;
}

/** Prints a command's JSON answer with every control character escaped: JSON.stringify leaves C1 and bidi controls raw. */
export function printJson(value: unknown): void {
  console.log(escapeControls(JSON.stringify(value)));
}

/** Text for a terminal: each line's control characters escaped (stored names are shown, never obeyed), its line breaks kept. */
export function printableLines(text: string): string {
  return text.split("\n").map(escapeControls).join("\n");
}

/** A whole number flag within bounds, or a UsageError naming the flag. */
export function wholeNumberFlag(value: string | undefined, flag: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) {
    throw new UsageError(`--${flag} must be a whole number from ${min} to ${max.toLocaleString("en-CA")} (got ${JSON.stringify(value)}).`);
  }
  return n;
}
