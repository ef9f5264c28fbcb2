import { startApp } from "../app.ts";
import { configSchema, loadConfig } from "../config.ts";
import { parseCommandArgs } from "./cliSupport.ts";

export const SERVE_HELP = `Usage: broker-directory serve [--port 3000] [--host 0.0.0.0] [--db PATH] [--no-demo] [--log-level info]

Applies pending migrations, then serves REST (/api/v1), and the health check (/healthz).
On an empty database it loads the demo directory and prints a new all-scope demo key once.

Settings (flag, then environment variable, then default):
${Object.entries(configSchema.shape)
  .map(([name, schema]) => `  ${name.padEnd(14)} ${schema.description ?? ""}`)
  .join("\n")}`;

export async function serveCommand(args: string[], env: Record<string, string | undefined>): Promise<void> {
  const { values } = parseCommandArgs(
    args,
    {
      port: { type: "string" },
      host: { type: "string" },
      db: { type: "string" },
      "no-demo": { type: "boolean" },
      "log-level": { type: "string" },
    },
    "serve",
  );
  if (values.help) return console.log(SERVE_HELP);
  const config = loadConfig({ flags: values, env });
  const app = startApp({
    databasePath: config.databasePath,
    port: config.port,
    hostname: config.host,
    demo: config.demo,
    logLevel: config.logLevel,
  });
  if (app.demo?.loadedBrokers) console.log(`Loaded the demo directory (${app.demo.loadedBrokers} brokers).`);
  if (app.demo?.key) {
    console.log(`Demo workspace key (all scopes, shown once; only its hash is stored):\n\n  ${app.demo.key}\n`);
    console.log(`Try: curl -H "Authorization: Bearer ${app.demo.key}" "${app.url}/api/v1/brokers?province=ON"`);
  }
  console.log(`Broker Directory listening on ${app.url} (database ${config.databasePath})`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.services.log.info("shutting down", { signal });
    await app.stop();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}
