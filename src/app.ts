import type { Server } from "bun";
import { loadCarriers } from "./storage/stores/loadCarriers.ts";
import { CONSOLE_PREVIEW, DemoPageKey } from "./demo/demoPageKey.ts";
import { DEMO_DIRECTORY, ensureDemoData, ensureDemoKey, type DemoSetup } from "./demo/ensureDemoData.ts";
import { InFlightResponses } from "./adapters/http/inFlight.ts";
import { DownloadSlots } from "./auth/downloadSlots.ts";
import { createLogger, type Logger, type LogLevel } from "./log.ts";
import { startMaintenance, type Maintenance } from "./ops/maintenance.ts";
import { WebhookDeliverer } from "./ops/webhooks/webhookDeliverer.ts";
import { IdleCollector } from "./ops/idleCollector.ts";
import { MemoryTarget } from "./ops/memoryTarget.ts";
import { startServer } from "./server.ts";
import { SharedRateLimiter } from "./auth/sharedRateLimiter.ts";
import type { KeyLimits } from "./auth/keyVocabulary.ts";
import { createServices, type Services } from "./services.ts";
import { BackgroundCheckpoints } from "./storage/sqlite/backgroundCheckpoints.ts";
import { closeDatabase, openDatabase, serveWithoutBlocking } from "./storage/sqlite/database.ts";
import { DEFAULT_LOCK_WAIT_MS } from "./storage/sqlite/groupCommit.ts";
import { migrate } from "./storage/sqlite/migrate.ts";
import { DatabaseNotWritableError, storageFaultOf } from "./storage/storageFault.ts";
import type { DirectoryDb } from "./storage/sqlite/database.ts";
import type { PgDb } from "./storage/pg/pgDatabase.ts";

export interface AppOptions {
  databasePath: string;
  port: number;
  hostname: string;
  demo: boolean;
  /** SQLITE_SYNCHRONOUS: NORMAL (default) or FULL (durable across power loss too). */
  synchronous?: "NORMAL" | "FULL";
  /** LOCK_WAIT_SECONDS: how long a write waits for a lock another process holds before 503 (default 2). */
  lockWaitSeconds?: number;
  /** DEMO_PUBLIC: serve /demo to other machines too. */
  demoPublic?: boolean;
  logLevel?: LogLevel;
  logger?: Logger;
  /** PUBLIC_URL: the origin clients use when a proxy sits in front. */
  publicUrl?: string;
  /** DATABASE_URL: PostgreSQL shared by several instances; unset, the SQLite file at databasePath. */
  databaseUrl?: string;
  /** REPLICA_DIR: where the directory replica is kept and reused (default: a temp dir removed at stop). */
  replicaDir?: string;
  /** DATABASE_TIMEOUT_SECONDS: how long a request's statement may wait for PostgreSQL. */
  databaseTimeoutSeconds?: number;
  /** REDIS_URL: Valkey/Redis holding the rate-limit windows every instance shares. */
  redisUrl?: string;
  /** REDIS_TIMEOUT_MS: how long a rate-limit check waits for the store before the local window answers. */
  redisTimeoutMs?: number;
  /** METRICS_TOKEN: lets a remote scraper read /metrics. */
  metricsToken?: string;
  /** MCP_ALLOWED_ORIGINS: browser origins that may call /mcp (none by default). */
  mcpAllowedOrigins?: readonly string[];
  /** MAX_KEYS_PER_WORKSPACE and KEY_RATE_LIMIT_CEILING (defaults DEFAULT_KEY_LIMITS). */
  keyLimits?: KeyLimits;
  /** BODY_TIMEOUT_SECONDS: how long a request body may take to arrive whole. */
  bodyTimeoutSeconds?: number;
  /** MAX_UPLOADS_PER_CLIENT: requests with a body one client address may have in progress at once. */
  maxUploadsPerClient?: number;
  /** DOWNLOADS_PER_KEY: large downloads one key may have in progress at once. */
  downloadsPerKey?: number;
  /** MEMORY_TARGET_MB: the anonymous memory kept near by early full collections (see MemoryTarget); 0 or absent: the engine's own pace. */
  memoryTargetMb?: number;
  /** The WEBHOOKS_* settings (issue 28); each defaults as `serve --help` says. */
  webhooks?: Partial<WebhookOptions>;
}

export interface WebhookOptions {
  allowHttpLoopback: boolean;
  /** WEBHOOKS_DELIVERY: whether this instance runs a deliverer. */
  delivery: boolean;
  timeoutSeconds: number;
  retryBaseSeconds: number;
  giveUpHours: number;
}

const WEBHOOK_DEFAULTS: WebhookOptions = { allowHttpLoopback: false, delivery: true, timeoutSeconds: 10, retryBaseSeconds: 10, giveUpHours: 24 };

export interface RunningApp {
  server: Server<undefined>;
  services: Services;
  url: string;
  demo: DemoSetup | undefined;
  migrationsApplied: string[];
  /** Housekeeping timers (rate-limit sweep, quote purge); purgeNow() runs a purge at once. */
  maintenance: Maintenance;
  /** The SQLite file's checkpointer thread (undefined over PostgreSQL, in memory, read-only). */
  checkpoints: BackgroundCheckpoints | undefined;
  /** Stops accepting, lets in-flight requests finish (up to `graceMs`), closes the database. */
  /** `drainMs`: how long to go on serving with /readyz at 503 before refusing connections. */
  stop(graceMs?: number, drainMs?: number): Promise<void>;
}

/** How often the in-memory usage counts are written to key_usage_daily. */
const USAGE_FLUSH_MS = 60_000;
/** How often the idle collector looks whether traffic stopped (see IdleCollector). */
const IDLE_CHECK_MS = 1_000;
/** How often memory is compared with MEMORY_TARGET_MB: RssAnon grows by a few MB in that time under load. */
const MEMORY_CHECK_MS = 250;
/** How long a forced stop waits for Bun to close the connections before the process exits. */
const FORCED_STOP_WAIT_MS = 200;

/**
 * Opens and migrates the database, loads demo data if asked, and starts serving. Asynchronous
 * because a shared database (DATABASE_URL) is reached over the network; over SQLite every step
 * is synchronous and the promise is settled at once.
 */
export async function startApp(options: AppOptions): Promise<RunningApp> {
  const log = options.logger ?? createLogger(options.logLevel ?? "info");
  const storage: AppStorage = options.databaseUrl ? await openSharedStorageLazily(options.databaseUrl, options, log) : openLocalStorage(options, log);
  const { db } = storage;
  const rateLimiter = options.redisUrl ? new SharedRateLimiter(options.redisUrl, log, { timeoutMs: options.redisTimeoutMs }) : undefined;
  const webhooks = { ...WEBHOOK_DEFAULTS, ...options.webhooks };
  const services = createServices(db, log, {
    ...storage.stores,
    ...(rateLimiter ? { rateLimiter } : {}),
    ...(options.keyLimits ? { keyLimits: options.keyLimits } : {}),
    downloads: new DownloadSlots(options.downloadsPerKey),
    webhookPolicy: { allowHttpLoopback: webhooks.allowHttpLoopback },
  });
  let demo: DemoSetup | undefined;
  if (storage.pg) {
    // The carriers and the demo directory went into PostgreSQL before the replica loaded them.
    demo = options.demo ? { loadedBrokers: storage.loadedBrokers, key: await ensureDemoKey(services) } : undefined;
  } else {
    // The carrier catalogue ships with the binary: every start makes the table match it (a
    // no-op when it does), demo data or not, so quotes never meet an empty catalogue. It and
    // the demo data are writes that can wait: on a read-only or full database the server
    // still starts and serves reads (writes answer 503 and /readyz says not ready).
    await unlessStorageFault(services, "carrier catalogue sync", () => loadCarriers(db));
    demo = options.demo ? await unlessStorageFault(services, "demo data", () => ensureDemoData(services)) : undefined;
  }
  await services.storage.recheck(true);
  // Before listening: built after, they stalled the event loop 170–250 ms (20,000 brokers) right
  // after start, as a balancer's first checks arrived (a check that times out takes it out).
  // Searches and discovery then never pay for them either.
  warmUp(log, "search index", () => services.brokers.warm());
  warmUp(log, "discovery index", () => services.brokers.warmDiscovery());
  // From here on, a lock held by another process (a seed, a CLI command) never stops the event loop.
  serveWithoutBlocking(db, (options.lockWaitSeconds ?? DEFAULT_LOCK_WAIT_MS / 1000) * 1000, log);
  let demoPageKey: DemoPageKey | undefined;
  let previewKey: DemoPageKey | undefined;
  const inFlight = new InFlightResponses();
  const server = startServer(services, {
    inFlight,
    port: options.port,
    hostname: options.hostname,
    demoEmbedKey: () => demoPageKey?.current(),
    consolePreviewKey: () => previewKey?.current(),
    demoPublic: options.demoPublic,
    publicUrl: options.publicUrl,
    metricsToken: options.metricsToken,
    mcpAllowedOrigins: options.mcpAllowedOrigins,
    bodyTimeoutSeconds: options.bodyTimeoutSeconds,
    maxUploadsPerClient: options.maxUploadsPerClient,
  });
  inFlight.port = server.port;
  const port = server.port;
  const ownOrigins = [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
  if (options.publicUrl) ownOrigins.push(new URL(options.publicUrl).origin);
  if (options.demo) demoPageKey = new DemoPageKey(services, ownOrigins);
  // Made on the first preview a console asks for, never before (a read-only start writes nothing).
  previewKey = new DemoPageKey(services, ownOrigins, CONSOLE_PREVIEW);
  // Usage counts live in memory between flushes; a crash loses at most this much of them.
  const usageFlush = setInterval(() => services.usage.flush(), USAGE_FLUSH_MS);
  usageFlush.unref();
  const maintenance = startMaintenance(services);
  // The outbox's deliverer: every instance runs one unless told not to (WEBHOOKS_DELIVERY=false);
  // claims keep them from sending one delivery twice at once.
  const deliverer = webhooks.delivery
    ? new WebhookDeliverer(services.webhooks, {
        allowLoopback: webhooks.allowHttpLoopback,
        timeoutMs: webhooks.timeoutSeconds * 1000,
        retryBaseMs: webhooks.retryBaseSeconds * 1000,
        giveUpMs: webhooks.giveUpHours * 3_600_000,
      }, log, services.now, undefined, services.webhookAttempts).start(services.webhookBell)
    : undefined;
  const idleCollector = new IdleCollector(() => inFlight.requestsBegun);
  const idleChecks = setInterval(() => {
    const started = performance.now();
    if (idleCollector.check()) log.debug("idle: memory collected", { ms: Math.round(performance.now() - started) });
  }, IDLE_CHECK_MS);
  idleChecks.unref();
  const memoryTarget = options.memoryTargetMb ? new MemoryTarget(options.memoryTargetMb * 1024 * 1024) : undefined;
  const memoryChecks = memoryTarget && setInterval(() => checkMemory(memoryTarget, log), MEMORY_CHECK_MS);
  memoryChecks?.unref();
  const host = options.hostname === "0.0.0.0" || options.hostname === "::" ? "localhost" : options.hostname;
  return {
    server,
    services,
    url: `http://${host}:${server.port}`,
    demo,
    migrationsApplied: storage.migrationsApplied,
    maintenance,
    checkpoints: storage.checkpoints,
    async stop(graceMs = 10_000, drainMs = 0) {
      services.drain.begin();
      if (drainMs > 0) {
        // Ref'd: the process must live through the drain. Requests are served as usual meanwhile.
        log.info("draining: /readyz answers 503 while requests are still served", { drainMs });
        await new Promise((resolve) => setTimeout(resolve, drainMs));
      }
      maintenance.stop();
      clearInterval(idleChecks);
      clearInterval(memoryChecks);
      // The grace timer is deliberately ref'd: once stopped, the server no longer keeps the
      // process alive, and an unref'd timer would let it exit mid-request (a reset connection).
      // Bun's stop(false) settles once handlers have returned, while a streamed body (the
      // directory resource) may still be produced or sent: those are waited for too (InFlightResponses).
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timedOut = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), graceMs)));
      const drained = Promise.all([server.stop(false), inFlight.idle()]).then(() => "drained" as const);
      const outcome = await Promise.race([drained, timedOut]);
      clearTimeout(timer);
      if (outcome === "timeout") {
        const { requests, streams, unsentBytes } = inFlight.counts();
        log.warn("shutdown grace period over: cutting the responses still in flight", { graceMs, responses: requests, streams, unsentBytes });
        // Streamed bodies stop where they are (see pacedStream's cutAtStop) and are closed mid-body
        // by the exit; Bun's forced stop settles only once every producer returned, which a cut
        // one never does, so it is given a moment, not awaited.
        services.drain.cutStreams();
        await Promise.race([server.stop(true), new Promise((resolve) => setTimeout(resolve, FORCED_STOP_WAIT_MS))]);
      }
      clearInterval(usageFlush);
      // Attempts in flight are cut; their claims expire and they are sent again after the restart.
      await deliverer?.stop();
      await services.usage.flush();
      await demoPageKey?.revokeAll();
      await previewKey?.revokeAll();
      services.rateLimiter.close?.();
      await storage.close(log);
    },
  };
}

/**
 * Builds an in-memory index now; a failure is logged and left to the first request that needs it.
 * Its time is logged: it is part of every start (O(directory), a reused replica's too).
 */
function warmUp(log: Logger, what: string, step: () => void): void {
  const started = performance.now();
  try {
    step();
    log.info(`${what} built`, { ms: Math.round(performance.now() - started) });
  } catch (error) {
    log.warn(`${what} warm-up skipped`, { error: error instanceof Error ? error.message : String(error) });
  }
}

/** What an instance stores in: the SQLite file, or PostgreSQL read through this instance's replica. */
interface AppStorage {
  /** The SQLite database the directory stores read: the file itself, or the replica. */
  db: DirectoryDb;
  /** Stores that replace the SQLite ones (PostgreSQL's). */
  stores: Partial<Services>;
  migrationsApplied: string[];
  /** The SQLite file's checkpointer thread, when it has one. */
  checkpoints?: BackgroundCheckpoints;
  pg?: PgDb;
  /** Demo brokers written into PostgreSQL by this start. */
  loadedBrokers: number;
  close(log: Logger): Promise<void>;
}

/**
 * PostgreSQL read through this instance's replica (DATABASE_URL). Its stack (postgres.js,
 * drizzle's postgres-js driver, our pg stores and replica) is loaded here and only here, so an
 * instance on SQLite never loads it: loaded and never called, it held ~7 MB of the process's
 * memory, and loaded code lengthens each of the engine's young-generation collections (the
 * performance page has the figures). test/unit/sqlite-start-loads-no-postgresql.test.ts keeps it so.
 */
async function openSharedStorageLazily(databaseUrl: string, options: AppOptions, log: Logger): Promise<AppStorage> {
  const [{ openSharedStorage }, { loadDemoDirectoryPg }] = await Promise.all([import("./storage/pg/sharedStorage.ts"), import("./demo/loadDirectoryPg.ts")]);
  return openSharedStorage(databaseUrl, log, {
    demoDirectory: options.demo ? (pg) => loadDemoDirectoryPg(pg, DEMO_DIRECTORY) : undefined,
    replicaDir: options.replicaDir,
    timeoutMs: options.databaseTimeoutSeconds === undefined ? undefined : options.databaseTimeoutSeconds * 1000,
  });
}

/** The one SQLite file of a single-machine deployment (no DATABASE_URL), opened and migrated. */
function openLocalStorage(options: AppOptions, log: Logger): AppStorage {
  const db = openDatabase(options.databasePath, { synchronous: options.synchronous });
  const { applied } = migrateOrExplain(db, options.databasePath);
  const checkpoints = BackgroundCheckpoints.start(db, log);
  return {
    db,
    stores: {},
    checkpoints,
    migrationsApplied: applied,
    loadedBrokers: 0,
    close: async (log) => {
      await checkpoints?.stop();
      closeDatabase(db, log);
    },
  };
}

/** Runs a start-up write; a storage fault (full, read-only) is reported and skipped, not fatal. */
async function unlessStorageFault<T>(services: Services, what: string, write: () => T | Promise<T>): Promise<T | undefined> {
  try {
    return await write();
  } catch (error) {
    if (!services.storage.report(error, what)) throw error;
    services.log.warn(`${what} skipped: the database takes no writes`, { fault: storageFaultOf(error) });
    return undefined;
  }
}

/** Pending migrations are the one write start cannot do without: say so in one line. */
function migrateOrExplain(db: DirectoryDb, path: string): { applied: string[] } {
  try {
    return migrate(db);
  } catch (error) {
    const fault = storageFaultOf(error);
    if (!fault) throw error;
    closeDatabase(db);
    throw new DatabaseNotWritableError(
      `The database ${path} needs migrations but is ${fault === "full" ? "on a full disk" : "read-only"}; start once with write access and free space, then it can serve read-only.`,
    );
  }
}

/** One look at memory against MEMORY_TARGET_MB; a collection is logged with its pause. */
function checkMemory(target: MemoryTarget, log: Logger): void {
  const started = performance.now();
  const outcome = target.check();
  if (outcome === "under" || outcome === "waiting") return;
  const fields = { targetMb: target.targetBytes / 1024 / 1024, ms: Math.round(performance.now() - started) };
  if (outcome === "collected") log.debug("memory over its target: collected", fields);
  else log.warn("memory stays over MEMORY_TARGET_MB after full collections: what is live is about that large; collecting once a minute until it is under again. Raise MEMORY_TARGET_MB (or 0 for the engine's own pace).", fields);
}
