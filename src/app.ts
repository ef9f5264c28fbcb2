import type { Server } from "bun";
import { ensureDemoData, type DemoSetup } from "./demo/ensureDemoData.ts";
import { createLogger, type Logger, type LogLevel } from "./log.ts";
import { startServer } from "./server.ts";
import { createServices, type Services } from "./services.ts";
import { openDatabase } from "./storage/database.ts";
import { migrate } from "./storage/migrate.ts";

export interface AppOptions {
  databasePath: string;
  port: number;
  hostname: string;
  demo: boolean;
  logLevel?: LogLevel;
  logger?: Logger;
}

export interface RunningApp {
  server: Server<undefined>;
  services: Services;
  url: string;
  demo: DemoSetup | undefined;
  migrationsApplied: string[];
  /** Stops accepting, lets in-flight requests finish (up to `graceMs`), closes the database. */
  stop(graceMs?: number): Promise<void>;
}

/** Opens and migrates the database, loads demo data if asked, and starts serving. */
export function startApp(options: AppOptions): RunningApp {
  const log = options.logger ?? createLogger(options.logLevel ?? "info");
  const db = openDatabase(options.databasePath);
  const { applied } = migrate(db);
  const services = createServices(db, log);
  const demo = options.demo ? ensureDemoData(services) : undefined;
  const server = startServer(services, { port: options.port, hostname: options.hostname });
  // Off the start-up path: the server answers /healthz at once, and searches find the index built.
  setTimeout(() => {
    try {
      services.brokers.warm();
    } catch (error) {
      log.warn("search index warm-up skipped", { error: error instanceof Error ? error.message : String(error) });
    }
  }, 0);
  const host = options.hostname === "0.0.0.0" || options.hostname === "::" ? "localhost" : options.hostname;
  return {
    server,
    services,
    url: `http://${host}:${server.port}`,
    demo,
    migrationsApplied: applied,
    async stop(graceMs = 10_000) {
      const drained = server.stop(false);
      const timedOut = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), graceMs).unref());
      if ((await Promise.race([drained, timedOut])) === "timeout") await server.stop(true);
      db.$client.close();
    },
  };
}
