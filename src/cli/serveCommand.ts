import { startApp } from "../app.ts";
import { describeSettings, loadConfig, replicaDirOf, settingFlags } from "../config.ts";
import { parseCommandArgs } from "./cliSupport.ts";
import { withoutPassword } from "./printableUrl.ts";

export const SERVE_HELP = `Usage: broker-directory serve [options]

Applies pending migrations, then serves REST (/api/v1), MCP (/mcp), tRPC (/trpc), the widget,
the API reference (/docs, /api/v1/openapi.json) and the operations endpoints (/healthz,
/readyz, /metrics). On an empty database it loads the demo directory and prints a new
demo key once (the five API scopes: keys:manage and webhooks:manage are never implicit). SIGTERM or SIGINT stops it gracefully (exit 0).

Settings (a flag wins over its environment variable, which wins over the default; an empty
variable counts as unset; a bad value stops the start with a message):
${describeSettings()}`;

export async function serveCommand(args: string[], env: Record<string, string | undefined>): Promise<void> {
  const { values } = parseCommandArgs(args, settingFlags(), "serve");
  if (values.help) return console.log(SERVE_HELP);
  const config = loadConfig({ flags: values, env });
  const app = await startApp({
    databasePath: config.databasePath,
    port: config.port,
    hostname: config.host,
    demo: config.demo,
    demoPublic: config.demoPublic,
    synchronous: config.synchronous,
    lockWaitSeconds: config.lockWaitSeconds,
    logLevel: config.logLevel,
    publicUrl: config.publicUrl,
    metricsToken: config.metricsToken,
    redisUrl: config.redisUrl,
    redisTimeoutMs: config.redisTimeoutMs,
    databaseUrl: config.databaseUrl,
    replicaDir: replicaDirOf(config),
    databaseTimeoutSeconds: config.databaseTimeoutSeconds,
    mcpAllowedOrigins: config.mcpAllowedOrigins,
    keyLimits: { maxKeysPerWorkspace: config.maxKeysPerWorkspace, rateLimitCeiling: config.keyRateLimitCeiling },
    bodyTimeoutSeconds: config.bodyTimeoutSeconds,
    maxUploadsPerClient: config.maxUploadsPerClient,
    downloadsPerKey: config.downloadsPerKey,
    memoryTargetMb: config.memoryTargetMb,
    webhooks: {
      allowHttpLoopback: config.webhooksAllowHttpLoopback,
      delivery: config.webhooksDelivery,
      timeoutSeconds: config.webhooksTimeoutSeconds,
      retryBaseSeconds: config.webhooksRetryBaseSeconds,
      giveUpHours: config.webhooksGiveUpHours,
    },
  });
  if (app.demo?.loadedBrokers) console.log(`Loaded the demo directory (${app.demo.loadedBrokers} brokers).`);
  if (app.demo?.key) {
    console.log(`Demo workspace key (API scopes, shown once; only its hash is stored):\n\n  ${app.demo.key}\n`);
    console.log(`Try: curl -H "Authorization: Bearer ${app.demo.key}" "${app.url}/api/v1/brokers?province=ON"`);
  }
  console.log(`Broker Directory listening on ${app.url} (database ${config.databaseUrl ? withoutPassword(config.databaseUrl) : config.databasePath})`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.services.log.info("shutting down", { signal });
    await app.stop(config.shutdownGraceSeconds * 1000, config.drainSeconds * 1000);
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}
