import { loadCarriers } from "../storage/stores/loadCarriers.ts";
import { loadCarriersPg } from "../storage/pg/loadCarriersPg.ts";
import { loadDirectory } from "../demo/loadDirectory.ts";
import { loadDirectoryPg } from "../demo/loadDirectoryPg.ts";
import type { DirectoryOptions } from "../demo/generateDirectory.ts";
import { DEFAULT_DATABASE_PATH } from "../config.ts";
import { parseCommandArgs, wholeNumberFlag } from "./cliSupport.ts";
import { onCommandDatabase } from "./commandDatabase.ts";
import { DATABASE_FLAGS } from "./workspaceStores.ts";

export const SEED_HELP = `Usage: broker-directory seed [--brokers N] [--reviews-per-broker M] [--seed S] [--db PATH | --database-url URL]

Replaces the directory (brokers, offices, reviews) with a generated, deterministic one.
API keys, workspaces, leads and quotes are kept.

  --brokers N              brokers to generate, 1 to 1,000,000 (default 300)
  --reviews-per-broker M   average reviews per broker, 0 to 100 (default 12)
  --seed S                 random seed; the same seed gives the same directory (default 2026)
  --db PATH                SQLite file (default DATABASE_PATH or ${DEFAULT_DATABASE_PATH})
  --database-url URL       PostgreSQL instead (default DATABASE_URL, unless --db is given): the directory is replaced in
                           one transaction and every running instance reloads its replica`;

export async function seedCommand(args: string[], env: Record<string, string | undefined>): Promise<void> {
  const { values } = parseCommandArgs(
    args,
    { brokers: { type: "string" }, "reviews-per-broker": { type: "string" }, seed: { type: "string" }, ...DATABASE_FLAGS },
    "seed",
  );
  if (values.help) return console.log(SEED_HELP);
  const options: DirectoryOptions = {
    brokers: wholeNumberFlag(values.brokers, "brokers", 1, 1_000_000) ?? 300,
    reviewsPerBroker: wholeNumberFlag(values["reviews-per-broker"], "reviews-per-broker", 0, 100) ?? 12,
    seed: wholeNumberFlag(values.seed, "seed", 0, 2 ** 32 - 1) ?? 2026,
  };
  const started = performance.now();
  const onProgress = progressPrinter();
  const { target, result: summary } = await onCommandDatabase(values, env, {
    pg: async (pg) => {
      const summary = await loadDirectoryPg(pg, options, onProgress);
      await loadCarriersPg(pg);
      return summary;
    },
    sqlite: (db) => {
      const summary = loadDirectory(db, options, onProgress);
      // The carrier catalogue quotes draw from ships with the app; seeding leaves it current too.
      loadCarriers(db);
      return summary;
    },
  });
  if (process.stderr.isTTY) process.stderr.write("\n");
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `Seeded ${target}: ${summary.brokers} brokers (${summary.publishedBrokers} published), ` +
      `${summary.locations} offices, ${summary.reviews} reviews in ${seconds} s (seed ${options.seed}).`,
  );
}

/** Progress on stderr: one line rewritten on a terminal, a line a second otherwise. */
function progressPrinter(): (done: number, total: number) => void {
  const interactive = process.stderr.isTTY;
  let lastPrinted = 0;
  return (done, total) => {
    const now = performance.now();
    if (done === total || now - lastPrinted > 1000) {
      lastPrinted = now;
      const line = `seeding: ${done.toLocaleString("en-CA")} / ${total.toLocaleString("en-CA")} brokers`;
      process.stderr.write(interactive ? `\r${line}` : `${line}\n`);
    }
  };
}
