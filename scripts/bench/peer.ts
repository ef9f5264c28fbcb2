/**
 * The performance peer inside `bun run bench` (issue 30): the conventional Node.js server of
 * ../shared/bench/peer (Fastify + better-sqlite3, its own data of the same shape), started beside
 * the ceiling and sent the list, `q` and detail requests of scenarios (1), (2) and (3), so every
 * results file carries product ÷ peer. Its folder is read-only, so it is copied into the bench's
 * working directory and installed there; with --seed-cache the installed node_modules are kept
 * (keyed by the lockfile) and linked on later runs instead of installing again. Anything that
 * goes wrong (no node, no registry, a compiler missing for better-sqlite3) is reported and the
 * run goes on without the peer: it is a yardstick, never a reason for the bench to fail.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { REPO, freePort } from "./appProcess.ts";
import { shuffle, type Scenario } from "./scenarios.ts";
import type { LoadRequest } from "./wrk.ts";

/** Where the peer's sources are looked for: beside the repository's checkout (../shared), or beside the worktrees' folder. */
const PEER_SOURCES = [process.env.BENCH_PEER_DIR, join(REPO, "../shared/bench/peer"), join(REPO, "../../shared/bench/peer")];
const PEER_FILES = ["package.json", "package-lock.json", "server.mjs"];
/** The scenarios the peer serves (it has no reviews, quotes, MCP or leads). */
export const PEER_SCENARIOS = ["list", "search", "detail"] as const;
/** Generating 100,000 brokers and their FTS index takes the peer a few seconds; installing can take minutes (better-sqlite3 compiled from source). */
const READY_TIMEOUT_MS = 180_000;
const INSTALL_TIMEOUT_MS = 15 * 60_000;

export interface RunningPeer {
  url: string;
  key: string;
  pid: number;
  stop: () => Promise<void>;
}

export type PeerStart = { ok: true; peer: RunningPeer } | { ok: false; reason: string };

/** Copies, installs (or links the cached install) and starts the peer with `brokers` brokers. */
export async function startPeer(options: { workDir: string; brokers: number; seedCache?: string }): Promise<PeerStart> {
  try {
    const source = PEER_SOURCES.find((dir) => dir !== undefined && existsSync(join(dir, "server.mjs")));
    if (!source) return { ok: false, reason: "no peer found (../shared/bench/peer, or BENCH_PEER_DIR)" };
    if (!Bun.which("node")) return { ok: false, reason: "node is not on PATH" };
    const dir = join(options.workDir, "peer");
    if (!existsSync(join(dir, "node_modules"))) {
      mkdirSync(dir, { recursive: true });
      for (const file of PEER_FILES) cpSync(join(source, file), join(dir, file));
      const installed = installModules(dir, options.seedCache);
      if (installed !== undefined) return { ok: false, reason: installed };
    }
    return await launch(dir, options.brokers);
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

/** node_modules in `dir`: linked from the seed cache, else installed (and moved into the cache). Returns why it failed, if it did. */
function installModules(dir: string, seedCache: string | undefined): string | undefined {
  const lock = Bun.hash.xxHash32(readFileSync(join(dir, "package-lock.json"))).toString(16);
  const cached = seedCache ? join(seedCache, `peer-modules-${lock}`) : undefined;
  if (cached && existsSync(join(cached, "node_modules"))) {
    symlinkSync(join(cached, "node_modules"), join(dir, "node_modules"));
    return undefined;
  }
  console.log("peer: npm install (fastify, better-sqlite3)…");
  const install = Bun.spawnSync(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, stdout: "pipe", stderr: "pipe", timeout: INSTALL_TIMEOUT_MS });
  if (install.exitCode !== 0) return `npm install failed (exit ${install.exitCode}): ${`${install.stderr}`.trim().split("\n").slice(-3).join(" / ")}`;
  if (cached) {
    // Moved, then linked back: the next run with this seed cache links it at once.
    mkdirSync(cached, { recursive: true });
    renameSync(join(dir, "node_modules"), join(cached, "node_modules"));
    symlinkSync(join(cached, "node_modules"), join(dir, "node_modules"));
  }
  return undefined;
}

/** `node server.mjs --port P --brokers N`, until it prints `ready P KEY`. */
async function launch(dir: string, brokers: number): Promise<PeerStart> {
  const port = await freePort();
  const proc = Bun.spawn(["node", "server.mjs", "--port", String(port), "--brokers", String(brokers)], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  const stop = async () => {
    proc.kill("SIGTERM");
    await proc.exited;
  };
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const deadline = Bun.sleep(READY_TIMEOUT_MS).then(() => "timeout" as const);
  while (true) {
    const chunk = await Promise.race([reader.read(), deadline]);
    if (chunk === "timeout" || chunk.done) {
      await stop();
      const stderr = await new Response(proc.stderr).text().catch(() => "");
      return { ok: false, reason: `the peer did not print "ready" (${chunk === "timeout" ? "timeout" : `exit ${proc.exitCode}`}): ${stderr.trim().split("\n").slice(-3).join(" / ")}` };
    }
    text += decoder.decode(chunk.value, { stream: true });
    const ready = text.match(/^ready (\d+) (\S+)$/m);
    if (ready) {
      // The rest of its output is not read: it prints nothing more (logger off).
      reader.releaseLock();
      return { ok: true, peer: { url: `http://127.0.0.1:${ready[1]}`, key: ready[2]!, pid: proc.pid, stop } };
    }
  }
}

/**
 * The product's requests of (1), (2) and (3) as the peer takes them. Its routes and parameter
 * names are the product's (q, province, city, insuranceType, page, limit), so the list and the
 * searches are sent unchanged; only detail changes: the peer's slugs are its own, so it is sent
 * up to as many of its published brokers as the product's scenario cycles through, found by
 * paging its own list, in a shuffled order (uniform, as (3)).
 */
export async function peerRequests(peer: RunningPeer, scenario: Scenario): Promise<LoadRequest[]> {
  const headers = { Authorization: `Bearer ${peer.key}` };
  if (scenario.id !== "detail") return scenario.requests.map((r) => ({ ...r, headers }));
  const slugs: string[] = [];
  for (let page = 1; slugs.length < scenario.requests.length; page++) {
    const response = await fetch(`${peer.url}/api/v1/brokers?limit=100&page=${page}`, { headers });
    if (!response.ok) throw new Error(`the peer's list answered ${response.status}`);
    const { data } = (await response.json()) as { data: { slug: string }[] };
    if (data.length === 0) break;
    slugs.push(...data.map((b) => b.slug));
  }
  return shuffle(slugs.slice(0, scenario.requests.length), 2026).map((slug) => ({ method: "GET", path: `/api/v1/brokers/${encodeURIComponent(slug)}`, headers }));
}
