/**
 * A CPU profile's samples sorted into the stages of a request (issue 30: "the bench shows where
 * each microsecond of a miss goes"), for scripts/bench/profile.ts. Each sample goes to the stage
 * of the deepest frame on its stack that names one (a native leaf such as `stringify` or `get`
 * is named by what it is, else by its caller), so a SQLite step called from the store counts as
 * the read, not as the procedure around it. Start-up (the index built before listening) is left
 * out; idle time is shown apart. Divided by the requests served while profiling, each stage
 * reads as microseconds of one request's CPU on the JavaScript thread.
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Stages in the order printed; a frame is tested against them in this order too. */
const STAGES: { stage: string; matches: (name: string, url: string) => boolean }[] = [
  { stage: "start-up (not a request)", matches: (name, url) => url.endsWith("src/app.ts") && (name === "startApp" || name === "warmUp") },
  { stage: "SQLite read (statements, row values)", matches: (name, url) => /storage\/(stores\/(brokerLookups|reviewPages)|sqlite\/readSnapshot)\.ts$/.test(url) || url.startsWith("bun:sqlite") },
  { stage: "answer object from rows", matches: (name, url) => /storage\/stores\/(brokerStore|reviewStore)\.ts$/.test(url) && /^to[A-Z]/.test(name) },
  // The search index's memory: a page of results, a detail's fields (its SQL, full-text search, counts as the read above).
  { stage: "search index in memory (pages, details)", matches: (_, url) => url.includes("/src/storage/search/") },
  { stage: "caches (keys, lookups, admission, insertion, eviction, sizing)", matches: (_, url) => /src\/cache\/|versionedCache\.ts$|responseCache(Key)?\.ts$/.test(url) },
  { stage: "zod (input parse)", matches: (_, url) => url.includes("node_modules/zod/") },
  { stage: "procedure call (tRPC middlewares, the door)", matches: (_, url) => /node_modules\/@trpc\/|src\/router\//.test(url) },
  { stage: "admission (key, rate limit, usage)", matches: (_, url) => url.includes("/src/auth/") || url.includes("/src/ops/usage") },
  { stage: "access log and metrics", matches: (_, url) => /src\/(log|logOutput)\.ts$|adapters\/metrics\//.test(url) },
  { stage: "URL, routing, headers, Response", matches: (_, url) => url.includes("/src/adapters/") || url.endsWith("src/server.ts") },
];
const JSON_STAGE = "JSON.stringify of the answer";
const GC_STAGE = "garbage collection";
const OTHER_STAGE = "other (Bun's HTTP work, microtasks, unattributed)";
const IDLE = new Set(["(idle)", "(program)"]);

export interface StageTime {
  stage: string;
  /** Share of the non-idle, non-start-up time. */
  share: number;
  /** Microseconds per request, when the request count is known. */
  microsPerRequest: number | undefined;
}

export function stagesOf(profile: CpuProfile, requests?: number): { stages: StageTime[]; idleShare: number } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const totals = new Map<string, number>();
  let idle = 0;
  let all = 0;
  profile.samples.forEach((id, i) => {
    const micros = profile.timeDeltas[i] ?? 0;
    all += micros;
    const leaf = byId.get(id)!;
    if (IDLE.has(leaf.callFrame.functionName)) {
      idle += micros;
      return;
    }
    const stage = stageOf(leaf, byId, parent);
    totals.set(stage, (totals.get(stage) ?? 0) + micros);
  });
  totals.delete(STAGES[0]!.stage);
  const busy = [...totals.values()].reduce((a, b) => a + b, 0);
  const order = [...STAGES.slice(1).map((s) => s.stage), JSON_STAGE, GC_STAGE, OTHER_STAGE];
  const stages = order
    .filter((stage) => totals.has(stage))
    .map((stage) => ({ stage, share: totals.get(stage)! / busy, microsPerRequest: requests ? totals.get(stage)! / requests : undefined }));
  return { stages, idleShare: idle / all };
}

function stageOf(leaf: ProfileNode, byId: Map<number, ProfileNode>, parent: Map<number, number>): string {
  const name = leaf.callFrame.functionName;
  if (name === "(garbage collector)" || name === "gc") return GC_STAGE;
  let stage: string | undefined;
  // The deepest frame naming a stage wins, except that start-up anywhere above claims the sample.
  for (let at: number | undefined = leaf.id; at !== undefined; at = parent.get(at)) {
    const frame = byId.get(at)!.callFrame;
    // The answer's JSON.stringify: the native called by the adapter itself (a cache key's is the
    // cache's), and a rated answer's serializer with all it calls (src/schemas/ratedAnswerJson.ts).
    if (at === parent.get(leaf.id) && leaf.callFrame.functionName === "stringify" && /adapters\/(rest|mcp)\//.test(frame.url) && !/Cache/.test(frame.url)) stage ??= JSON_STAGE;
    if (frame.url.endsWith("schemas/ratedAnswerJson.ts")) stage ??= JSON_STAGE;
    const found = STAGES.find((s) => s.matches(frame.functionName, frame.url));
    if (found !== undefined && found === STAGES[0]) return found.stage;
    if (found) stage ??= found.stage;
  }
  return stage ?? OTHER_STAGE;
}

/** The breakdown as printed by profile.ts. */
export function stageLines(result: { stages: StageTime[]; idleShare: number }): string[] {
  return [
    "| stage | share of busy CPU | µs a request |",
    "| --- | ---: | ---: |",
    ...result.stages.map((s) => `| ${s.stage} | ${(s.share * 100).toFixed(1)} % | ${s.microsPerRequest === undefined ? "" : s.microsPerRequest.toFixed(1)} |`),
    `(idle: ${(result.idleShare * 100).toFixed(1)} % of the profile)`,
  ];
}
