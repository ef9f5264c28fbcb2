import { dirname, join } from "node:path";
import { z } from "zod";
import { LOG_LEVELS } from "./log.ts";
import { DEFAULT_KEY_LIMITS, MAX_KEY_RATE_LIMIT } from "./auth/keyVocabulary.ts";
import { trimChar } from "./domain/text.ts";
import { DEFAULT_COMMAND_TIMEOUT_MS } from "./auth/sharedRateLimiter.ts";
import { DEFAULT_STATEMENT_TIMEOUT_MS } from "./storage/pg/statementTimeout.ts";
import { DEFAULT_DOWNLOADS_PER_KEY } from "./auth/downloadSlots.ts";

/**
 * Every setting of the service in one table: its command-line flag, its environment variable
 * and its zod schema (type, bounds, default and the message for a bad value). Flags win over
 * the environment, which wins over defaults. `serve --help` is printed from this table and
 * `serve` accepts exactly these flags, so a setting cannot exist without being documented.
 */
interface Setting {
  /** The serve flag (`--port`), or null for a setting only the environment may carry (secrets). */
  flag: string | null;
  env: string | null;
  /** A boolean switch flag (`--no-demo`) rather than one that takes a value. */
  switch?: true;
  /** The value a switch flag sets: false for `--no-x` (the default), true for `--x`. */
  switchSets?: boolean;
  /** What the value looks like in --help, e.g. "N" or "PATH". */
  placeholder?: string;
  schema: z.ZodType;
  help: string;
}

const booleanText = (name: string) =>
  z.preprocess(
    (value) => (typeof value === "string" ? ({ true: true, "1": true, false: false, "0": false } as Record<string, boolean>)[value.trim().toLowerCase()] ?? value : value),
    z.boolean({ error: `${name} must be true or false` }),
  );

const httpUrl = (name: string) =>
  z
    .string()
    .trim()
    .refine((value) => /^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/i.test(value), { error: `${name} must be an http(s) URL such as https://brokers.example.ca` })
    .transform((value) => trimChar(value, "/", "end"));

/**
 * MEMORY_TARGET_MB's default: 100,000 brokers keep 180–200 MB live once warm (after the bench's
 * scenarios and a collection), so this leaves the engine 40–60 MB to allocate between
 * collections at that size; a smaller directory comes near it only under heavy load.
 */
const DEFAULT_MEMORY_TARGET_MB = 240;

/** A whole number from `min` to `max`, e.g. wholeNumber("PORT / --port", 0, 65535, 3000). */
const wholeNumber = (name: string, min: number, max: number, fallback: number) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int({ error: `${name} must be a whole number` })
    .min(min, { error: `${name} must be ${min} to ${max}` })
    .max(max, { error: `${name} must be ${min} to ${max}` })
    .default(fallback);

/** A whole or fractional number of seconds from 0 to `max`, e.g. seconds("DRAIN_SECONDS / --drain", 60, 0). */
const seconds = (name: string, max: number, fallback: number) =>
  z.coerce
    .number({ error: `${name} must be a number of seconds` })
    .min(0, { error: `${name} must be 0 to ${max}` })
    .max(max, { error: `${name} must be 0 to ${max}` })
    .default(fallback);

/** A comma-separated list of browser origins (scheme://host[:port]), normalised as browsers send them. */
const originList = (name: string) =>
  z.string().transform((value, ctx) => {
    const origins: string[] = [];
    for (const part of value.split(",").map((item) => item.trim()).filter(Boolean)) {
      if (!/^https?:\/\/[^/?#\s]+$/i.test(part)) {
        ctx.addIssue({ code: "custom", message: `${name}: ${JSON.stringify(part)} is not an origin such as https://app.example.com (scheme, host, optional port; no path)` });
        return z.NEVER;
      }
      origins.push(new URL(part).origin);
    }
    return origins;
  });

/** Where the SQLite file is when neither --db nor DATABASE_PATH says (serve and every command). */
export const DEFAULT_DATABASE_PATH = "./data/broker-directory.db";

export const SETTINGS = {
  port: {
    flag: "port",
    env: "PORT",
    placeholder: "N",
    schema: wholeNumber("PORT / --port", 0, 65535, 3000),
    help: "TCP port; 0 picks a free one (default 3000)",
  },
  host: {
    flag: "host",
    env: "HOST",
    placeholder: "ADDR",
    schema: z.string().trim().min(1, { error: "HOST / --host must not be empty" }).default("0.0.0.0"),
    help: "Interface to bind: 0.0.0.0 for all, 127.0.0.1 for this machine only (default 0.0.0.0)",
  },
  databasePath: {
    flag: "db",
    env: "DATABASE_PATH",
    placeholder: "PATH",
    schema: z.string().trim().min(1, { error: "DATABASE_PATH / --db must not be empty" }).default(DEFAULT_DATABASE_PATH),
    help: `SQLite file, created if missing (default ${DEFAULT_DATABASE_PATH})`,
  },
  databaseUrl: {
    flag: "database-url",
    env: "DATABASE_URL",
    placeholder: "URL",
    // Credentials may be in it: the message never repeats the value.
    schema: z
      .url({ protocol: /^(postgres|postgresql)$/, error: "DATABASE_URL / --database-url must be a postgres:// or postgresql:// URL" })
      .optional(),
    help: "PostgreSQL shared by several instances (postgres://user:pass@host/db); when set, --db is not used (default: the SQLite file)",
  },
  replicaDir: {
    flag: "replica-dir",
    env: "REPLICA_DIR",
    placeholder: "DIR",
    schema: z.string().trim().min(1, { error: "REPLICA_DIR / --replica-dir must not be empty" }).optional(),
    help: "With DATABASE_URL: where each instance keeps its directory replica and reuses it at the next start; instances of one machine may share it (default: replicas/ beside --db's file, ./data/replicas)",
  },
  demo: {
    flag: "no-demo",
    env: "DEMO",
    switch: true,
    schema: booleanText("DEMO").default(true),
    help: "Load the demo directory into an empty database; --no-demo or DEMO=false turns it off",
  },
  demoPublic: {
    flag: "demo-public",
    env: "DEMO_PUBLIC",
    switch: true,
    switchSets: true,
    schema: booleanText("DEMO_PUBLIC").default(false),
    help: "Serve /demo (which hands out a low-limit embed key) to other machines too; by default only to this one",
  },
  logLevel: {
    flag: "log-level",
    env: "LOG_LEVEL",
    placeholder: "LEVEL",
    schema: z.enum(LOG_LEVELS, { error: `LOG_LEVEL / --log-level must be one of ${LOG_LEVELS.join(", ")}` }).default("info"),
    help: "debug, info, warn, error or silent (default info)",
  },
  publicUrl: {
    flag: "public-url",
    env: "PUBLIC_URL",
    placeholder: "URL",
    schema: httpUrl("PUBLIC_URL / --public-url").optional(),
    help: "The URL clients use, when behind a reverse proxy (absolute links, OpenAPI servers, /docs)",
  },
  redisUrl: {
    flag: "redis-url",
    env: "REDIS_URL",
    placeholder: "URL",
    schema: z
      .url({ protocol: /^(redis|rediss|valkey|valkeys)$/, error: "REDIS_URL / --redis-url must be a redis://, rediss://, valkey:// or valkeys:// URL" })
      .optional(),
    help: "Valkey or Redis that holds the rate-limit windows, so several instances share one budget per key (default: in this process)",
  },
  databaseTimeoutSeconds: {
    flag: "database-timeout",
    env: "DATABASE_TIMEOUT_SECONDS",
    placeholder: "S",
    schema: z.coerce
      .number({ error: "DATABASE_TIMEOUT_SECONDS / --database-timeout must be a number of seconds" })
      .min(0.1, { error: "DATABASE_TIMEOUT_SECONDS / --database-timeout must be 0.1 to 60" })
      .max(60, { error: "DATABASE_TIMEOUT_SECONDS / --database-timeout must be 0.1 to 60" })
      .default(DEFAULT_STATEMENT_TIMEOUT_MS / 1000),
    help: "With DATABASE_URL: how long a request's statement may wait for PostgreSQL (connecting included) before it answers 503; a write not committed by then never is (default 5)",
  },
  redisTimeoutMs: {
    flag: "redis-timeout",
    env: "REDIS_TIMEOUT_MS",
    placeholder: "MS",
    schema: z.coerce
      .number({ error: "REDIS_TIMEOUT_MS / --redis-timeout must be a number of milliseconds" })
      .int({ error: "REDIS_TIMEOUT_MS / --redis-timeout must be a whole number of milliseconds" })
      .min(5, { error: "REDIS_TIMEOUT_MS / --redis-timeout must be 5 to 10000" })
      .max(10_000, { error: "REDIS_TIMEOUT_MS / --redis-timeout must be 5 to 10000" })
      .default(DEFAULT_COMMAND_TIMEOUT_MS),
    help: "With REDIS_URL: a rate-limit check the store has not answered by then uses this instance's own window, and the store is left alone (checked once a second) until it answers in time again (default 50)",
  },
  metricsToken: {
    flag: null,
    env: "METRICS_TOKEN",
    schema: z.string().trim().min(16, { error: "METRICS_TOKEN must be at least 16 characters" }).optional(),
    help: "Bearer token that lets a remote scraper read /metrics (environment only; loopback needs none)",
  },
  mcpAllowedOrigins: {
    flag: "mcp-allowed-origins",
    env: "MCP_ALLOWED_ORIGINS",
    placeholder: "ORIGINS",
    schema: originList("MCP_ALLOWED_ORIGINS / --mcp-allowed-origins").default([]),
    help: "Browser origins allowed to call /mcp, comma-separated (default none: agents send no Origin)",
  },
  synchronous: {
    flag: "synchronous",
    env: "SQLITE_SYNCHRONOUS",
    placeholder: "MODE",
    schema: z
      .string()
      .trim()
      .toUpperCase()
      .pipe(z.enum(["NORMAL", "FULL"], { error: "SQLITE_SYNCHRONOUS / --synchronous must be NORMAL or FULL" }))
      .default("NORMAL"),
    help: "NORMAL (default): no acknowledged write is lost if the process dies, the last ones may be on power loss; FULL: none on power loss either (an fsync per write)",
  },
  lockWaitSeconds: {
    flag: "lock-wait",
    env: "LOCK_WAIT_SECONDS",
    placeholder: "S",
    schema: seconds("LOCK_WAIT_SECONDS / --lock-wait", 30, 2),
    help: "How long a write waits for the database's write lock while another process holds it (a seed, a CLI command, an import), before it answers 503 with Retry-After; the event loop never waits (default 2)",
  },
  maxKeysPerWorkspace: {
    flag: "max-keys-per-workspace",
    env: "MAX_KEYS_PER_WORKSPACE",
    placeholder: "N",
    schema: wholeNumber("MAX_KEYS_PER_WORKSPACE / --max-keys-per-workspace", 1, 1_000_000, DEFAULT_KEY_LIMITS.maxKeysPerWorkspace),
    help: `Live keys one workspace may hold; a create (API, console or \`keys create\`) past it answers 409 (default ${DEFAULT_KEY_LIMITS.maxKeysPerWorkspace})`,
  },
  keyRateLimitCeiling: {
    flag: "key-rate-limit-ceiling",
    env: "KEY_RATE_LIMIT_CEILING",
    placeholder: "N",
    schema: wholeNumber("KEY_RATE_LIMIT_CEILING / --key-rate-limit-ceiling", 1, MAX_KEY_RATE_LIMIT, DEFAULT_KEY_LIMITS.rateLimitCeiling),
    help: `Highest requests per minute a key made through the API or the console may get (never above its creator's own); \`keys create\` may go higher (default ${DEFAULT_KEY_LIMITS.rateLimitCeiling.toLocaleString("en-CA")})`,
  },
  bodyTimeoutSeconds: {
    flag: "body-timeout",
    env: "BODY_TIMEOUT_SECONDS",
    placeholder: "S",
    schema: wholeNumber("BODY_TIMEOUT_SECONDS / --body-timeout", 1, 120, 10),
    help: "How long a request body may take to arrive whole, from the request's start; then its connection is closed (default 10)",
  },
  maxUploadsPerClient: {
    flag: "max-uploads-per-client",
    env: "MAX_UPLOADS_PER_CLIENT",
    placeholder: "N",
    schema: wholeNumber("MAX_UPLOADS_PER_CLIENT / --max-uploads-per-client", 1, 1_000_000, 256),
    help: "Requests with a body one client address (an IPv6 /64) may have in progress at once; more get 429 (default 256; behind a proxy all clients share its address: see /docs/manual/security)",
  },
  downloadsPerKey: {
    flag: "downloads-per-key",
    env: "DOWNLOADS_PER_KEY",
    placeholder: "N",
    schema: wholeNumber("DOWNLOADS_PER_KEY / --downloads-per-key", 1, 100, DEFAULT_DOWNLOADS_PER_KEY),
    help: `Large downloads (broker://directory reads, leads CSV exports) one key may have in progress at once, per instance; more are refused with 429 (default ${DEFAULT_DOWNLOADS_PER_KEY})`,
  },
  memoryTargetMb: {
    flag: "memory-target",
    env: "MEMORY_TARGET_MB",
    placeholder: "MB",
    schema: wholeNumber("MEMORY_TARGET_MB / --memory-target", 0, 1_048_576, DEFAULT_MEMORY_TARGET_MB),
    help: `Anonymous memory (RssAnon) the server keeps near by running a full garbage collection as soon as it is over, instead of letting the heap grow to twice what is live; 0 leaves the pace to the engine (default ${DEFAULT_MEMORY_TARGET_MB}: room above what 100,000 brokers keep live)`,
  },
  webhooksAllowHttpLoopback: {
    flag: "webhooks-allow-http-loopback",
    env: "WEBHOOKS_ALLOW_HTTP_LOOPBACK",
    switch: true,
    switchSets: true,
    schema: booleanText("WEBHOOKS_ALLOW_HTTP_LOOPBACK").default(false),
    help: "Let webhook endpoints be http:// or https:// URLs on this machine's loopback (localhost, 127.0.0.1, [::1]), for tests and development; never on a shared server",
  },
  webhooksDelivery: {
    flag: "no-webhooks-delivery",
    env: "WEBHOOKS_DELIVERY",
    switch: true,
    schema: booleanText("WEBHOOKS_DELIVERY").default(true),
    help: "Send the outbox's webhook deliveries from this instance (the default); --no-webhooks-delivery or WEBHOOKS_DELIVERY=false leaves them to the instances that do (events are still written with their leads and quotes, and wait for one)",
  },
  webhooksTimeoutSeconds: {
    flag: "webhooks-timeout",
    env: "WEBHOOKS_TIMEOUT_SECONDS",
    placeholder: "S",
    schema: wholeNumber("WEBHOOKS_TIMEOUT_SECONDS / --webhooks-timeout", 1, 60, 10),
    help: "How long one webhook delivery attempt may take, connecting and reading the answer included, before it counts as failed (default 10)",
  },
  webhooksRetryBaseSeconds: {
    flag: "webhooks-retry-base",
    env: "WEBHOOKS_RETRY_BASE_SECONDS",
    placeholder: "S",
    schema: seconds("WEBHOOKS_RETRY_BASE_SECONDS / --webhooks-retry-base", 3600, 10),
    help: "The wait before a failed webhook delivery is retried, doubled after each failure up to an hour, ±25 % jitter (default 10)",
  },
  webhooksGiveUpHours: {
    flag: "webhooks-give-up",
    env: "WEBHOOKS_GIVE_UP_HOURS",
    placeholder: "H",
    schema: z.coerce
      .number({ error: "WEBHOOKS_GIVE_UP_HOURS / --webhooks-give-up must be a number of hours" })
      .min(0.0001, { error: "WEBHOOKS_GIVE_UP_HOURS / --webhooks-give-up must be 0.0001 to 720" })
      .max(720, { error: "WEBHOOKS_GIVE_UP_HOURS / --webhooks-give-up must be 0.0001 to 720" })
      .default(24),
    help: "How long a webhook delivery is retried before it is given up, and how long an endpoint may fail in a row before it is disabled (default 24)",
  },
  shutdownGraceSeconds: {
    flag: "shutdown-grace",
    env: "SHUTDOWN_GRACE_SECONDS",
    placeholder: "S",
    schema: seconds("SHUTDOWN_GRACE_SECONDS / --shutdown-grace", 300, 10),
    help: "On SIGTERM/SIGINT, how long in-flight requests may finish before they are cut (default 10)",
  },
  drainSeconds: {
    flag: "drain",
    env: "DRAIN_SECONDS",
    placeholder: "S",
    schema: seconds("DRAIN_SECONDS / --drain", 60, 0),
    help: "On SIGTERM/SIGINT, how long to go on serving with /readyz at 503 before refusing connections, so a load balancer stops sending first (default 0; behind one: its check interval x fall count)",
  },
} as const satisfies Record<string, Setting>;

type SettingName = keyof typeof SETTINGS;

// The object schema of all settings; the cast restores the per-key types Object.fromEntries loses.
export const configSchema = z.object(
  Object.fromEntries(Object.entries(SETTINGS).map(([name, s]) => [name, s.schema])),
) as unknown as z.ZodObject<{ [K in SettingName]: (typeof SETTINGS)[K]["schema"] }>;

export type Config = z.infer<typeof configSchema>;

export interface ConfigSources {
  /** Parsed flags by flag name ("port", "no-demo"…): serve's, or another command's that share them. */
  flags: Record<string, string | boolean | undefined>;
  env: Record<string, string | undefined>;
}

/** The `util.parseArgs` options for every setting that has a flag. */
export function settingFlags(): Record<string, { type: "string" | "boolean" }> {
  const out: Record<string, { type: "string" | "boolean" }> = {};
  for (const s of Object.values(SETTINGS) as Setting[]) if (s.flag) out[s.flag] = { type: s.switch ? "boolean" : "string" };
  return out;
}

/** One line per setting, for `serve --help`. */
export function describeSettings(): string {
  const settings = Object.values(SETTINGS) as Setting[];
  const flagOf = (s: Setting) => (s.flag ? (s.switch ? `--${s.flag}` : `--${s.flag} ${s.placeholder ?? "VALUE"}`) : "");
  const flagWidth = Math.max(4, ...settings.map((s) => flagOf(s).length));
  const envWidth = Math.max(11, ...settings.map((s) => (s.env ?? "").length));
  const row = (flag: string, env: string, help: string) => `  ${flag.padEnd(flagWidth)}  ${env.padEnd(envWidth)}  ${help}`;
  return [row("Flag", "Environment", "Meaning"), ...settings.map((s) => row(flagOf(s), s.env ?? "", s.help))].join("\n");
}

export function loadConfig({ flags, env }: ConfigSources): Config {
  const raw: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(SETTINGS) as [SettingName, Setting][]) raw[name] = rawSetting(s, { flags, env });
  const result = configSchema.safeParse(raw);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((i) => i.message).join("\n"));
  }
  return result.data;
}

/**
 * One setting read exactly as serve reads it (flag, else environment, else default; checked by
 * its schema), for the other commands, which take a few of serve's settings under the same flags
 * (`--db` of migrate, seed, backup, restore, keys, console-link).
 */
export function readSetting<N extends SettingName>(name: N, sources: ConfigSources): Config[N] {
  const result = SETTINGS[name].schema.safeParse(rawSetting(SETTINGS[name], sources));
  if (!result.success) throw new ConfigError(result.error.issues.map((i) => i.message).join("\n"));
  return result.data as Config[N];
}

/** The flag's value, else the environment's (empty counts as unset); a switch flag sets its value when present: --no-demo false, --demo-public true. */
function rawSetting(s: Setting, { flags, env }: ConfigSources): unknown {
  const fromFlag = s.flag === null ? undefined : s.switch ? (flags[s.flag] ? (s.switchSets ?? false) : undefined) : flags[s.flag];
  const fromEnv = s.env === null ? undefined : env[s.env];
  return fromFlag ?? (fromEnv === "" ? undefined : fromEnv);
}

/** REPLICA_DIR, or its default: a `replicas` directory beside the SQLite file's path. */
export function replicaDirOf(config: Pick<Config, "replicaDir" | "databasePath">): string {
  return config.replicaDir ?? join(dirname(config.databasePath), "replicas");
}

export class ConfigError extends Error {}
