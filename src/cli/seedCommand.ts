import { loadCarriers } from "../../db/seed/loadCarriers.ts";
import { loadDirectory } from "../../db/seed/loadDirectory.ts";
import { closeDatabase, openDatabase } from "../storage/database.ts";
import { migrate } from "../storage/migrate.ts";
import { parseCommandArgs, wholeNumberFlag } from "./cliSupport.ts";

export const SEED_HELP = `Usage: broker-directory seed [--brokers N] [--reviews-per-broker M] [--seed S] [--db PATH]

Replaces the directory (brokers, offices, reviews) with a generated, deterministic one.
API keys and workspaces are kept.

  --brokers N              brokers to generate, 1 to 1,000,000 (default 300)
  --reviews-per-broker M   average reviews per broker, 0 to 100 (default 12)
  --seed S                 random seed; the same seed gives the same directory (default 2026)
  --db PATH                SQLite file (default DATABASE_PATH or ./data/broker-directory.db)`;

export function seedCommand(args: string[], env: Record<string, string | undefined>): void {
  const { values } = parseCommandArgs(
    args,
    { brokers: { type: "string" }, "reviews-per-broker": { type: "string" }, seed: { type: "string" }, db: { type: "string" } },
    "seed",
  );
  if (values.help) return console.log(SEED_HELP);
  const options = {
    brokers: wholeNumberFlag(values.brokers, "brokers", 1, 1_000_000) ?? 300,
    reviewsPerBroker: wholeNumberFlag(values["reviews-per-broker"], "reviews-per-broker", 0, 100) ?? 12,
    seed: wholeNumberFlag(values.seed, "seed", 0, 2 ** 32 - 1) ?? 2026,
  };
  const path = values.db ?? env.DATABASE_PATH ?? "./data/broker-directory.db";
  const db = openDatabase(path);
  migrate(db);
  const started = performance.now();
  const interactive = process.stderr.isTTY;
  let lastPrinted = 0;
  const summary = loadDirectory(db, options, (done, total) => {
    const now = performance.now();
    if (done === total || now - lastPrinted > 1000) {
      lastPrinted = now;
      const line = `seeding: ${done.toLocaleString("en-CA")} / ${total.toLocaleString("en-CA")} brokers`;
      process.stderr.write(interactive ? `\r${line}` : `${line}\n`);
    }
  });
  if (interactive) process.stderr.write("\n");
  // The carrier catalogue quotes draw from ships with the app; seeding leaves it current too.
  loadCarriers(db);
  closeDatabase(db);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `Seeded ${path}: ${summary.brokers} brokers (${summary.publishedBrokers} published), ` +
      `${summary.locations} offices, ${summary.reviews} reviews in ${seconds} s (seed ${options.seed}).`,
  );
}
