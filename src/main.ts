#!/usr/bin/env bun
import { ConfigError } from "./config.ts";
import { printableLines, RefusedError, UsageError } from "./cli/cliSupport.ts";
import { BackupError } from "./ops/backup.ts";
import { DatabaseFileError } from "./storage/sqlite/databaseFile.ts";
import { SchemaTooNewError } from "./storage/sqlite/migrate.ts";
import { DatabaseNotWritableError } from "./storage/storageFault.ts";

const HELP = `Broker Directory: Canada's insurance brokers over REST, MCP and an embeddable widget.

Usage: broker-directory <command> [options]

Commands:
  serve     Start the server (migrates first; demo data on an empty database)
  migrate   Apply pending database migrations
  seed      Replace the directory with generated demo data
  import    Upsert brokers or reviews from a CSV, NDJSON or JSON file
  export    Write the brokers or reviews in the columns import reads
  keys      Create, list and revoke API keys
  console-link  Print a one-time sign-in link to a workspace's console (or end its sessions)
  webhooks  Register, list and delete a workspace's webhook endpoints
  backup    Copy the live database to a new file while it serves
  restore   Put a backup in place of the database (server stopped)

Run 'broker-directory <command> --help' for a command's options.`;

type Command = (args: string[], env: Record<string, string | undefined>) => void | Promise<void>;

/**
 * Each command's module, loaded when that command runs: `serve` never loads what only the other
 * commands use (their PostgreSQL connections for DATABASE_URL, seeding, backup…): code loaded
 * and never run still holds memory and lengthens the engine's collections (see app.ts,
 * openSharedStorageLazily).
 */
const commands: Record<string, () => Promise<Command>> = {
  serve: async () => (await import("./cli/serveCommand.ts")).serveCommand,
  migrate: async () => (await import("./cli/migrateCommand.ts")).migrateCommand,
  seed: async () => (await import("./cli/seedCommand.ts")).seedCommand,
  import: async () => (await import("./cli/importCommand.ts")).importCommand,
  export: async () => (await import("./cli/exportCommand.ts")).exportCommand,
  keys: async () => (await import("./cli/keysCommand.ts")).keysCommand,
  "console-link": async () => (await import("./cli/consoleLinkCommand.ts")).consoleLinkCommand,
  webhooks: async () => (await import("./cli/webhooksCommand.ts")).webhooksCommand,
  backup: async () => (await import("./cli/backupCommand.ts")).backupCommand,
  restore: async () => (await import("./cli/restoreCommand.ts")).restoreCommand,
};

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    console.log(HELP);
    return command === undefined ? 2 : 0;
  }
  // Own keys only: "constructor" or "toString" is an unknown command, not Object's method.
  const load = Object.hasOwn(commands, command) ? commands[command] : undefined;
  if (!load) {
    console.error(`Unknown command ${JSON.stringify(command)}.\n\n${HELP}`);
    return 2;
  }
  try {
    const run = await load();
    await run(args, process.env);
    return 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError) {
      console.error(`Error: ${printableLines(error.message)}`);
      return 2;
    }
    if (error instanceof SchemaTooNewError || error instanceof BackupError || error instanceof DatabaseNotWritableError || error instanceof RefusedError || error instanceof DatabaseFileError) {
      console.error(`Error: ${printableLines(error.message)}`);
      return 1;
    }
    throw error;
  }
}

const code = await main(process.argv.slice(2));
if (code !== 0 || process.argv[2] !== "serve") {
  // Leave by the end of the event loop, not process.exit: exiting at once can drop what a command
  // printed to a slow pipe (seen under load: a `console-link --json` reader got an empty stdout).
  process.exitCode = code;
  // Should a handle stay open by mistake, the command still ends (unref: this timer alone keeps nothing alive).
  setTimeout(() => process.exit(code), 10_000).unref();
  // And wait until stdout has taken what was printed: a console-link --json under load still
  // reached its reader empty once (exit 0, no output) after the exitCode change above.
  await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
}
