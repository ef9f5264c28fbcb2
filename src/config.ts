import { z } from "zod";
import { LOG_LEVELS } from "./log.ts";

/**
 * Every setting of the service, in one zod schema: command-line flags win over environment
 * variables, which win over defaults. Unknown or invalid values stop the start with a message.
 */
export const configSchema = z.object({
  port: z.coerce
    .number({ error: "PORT / --port must be a number" })
    .int({ error: "PORT / --port must be a whole number" })
    .min(0, { error: "PORT / --port must be 0 to 65535" })
    .max(65535, { error: "PORT / --port must be 0 to 65535" })
    .default(3000)
    .describe("TCP port (PORT, --port); 0 picks a free one"),
  host: z.string().min(1).default("0.0.0.0").describe("Interface to bind (HOST, --host)"),
  databasePath: z.string().min(1).default("./data/broker-directory.db").describe("SQLite file (DATABASE_PATH, --db)"),
  demo: z.boolean().default(true).describe("Load demo data into an empty database (--no-demo turns it off)"),
  logLevel: z.enum(LOG_LEVELS, { error: `LOG_LEVEL / --log-level must be one of ${LOG_LEVELS.join(", ")}` }).default("info")
    .describe("debug, info, warn, error or silent (LOG_LEVEL, --log-level)"),
});

export type Config = z.infer<typeof configSchema>;

export interface ConfigSources {
  flags: Partial<Record<"port" | "host" | "db" | "log-level", string>> & { "no-demo"?: boolean };
  env: Record<string, string | undefined>;
}

export function loadConfig({ flags, env }: ConfigSources): Config {
  const result = configSchema.safeParse({
    port: flags.port ?? env.PORT,
    host: flags.host ?? env.HOST,
    databasePath: flags.db ?? env.DATABASE_PATH,
    demo: flags["no-demo"] ? false : undefined,
    logLevel: flags["log-level"] ?? env.LOG_LEVEL,
  });
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("\n"));
  }
  return result.data;
}

export class ConfigError extends Error {}
