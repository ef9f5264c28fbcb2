/**
 * What the benchmark asks the server, and in which mix. Access patterns (the result cache
 * in src/storage/stores/brokerStore.ts keeps 5,000 entries and the REST response cache keeps answers
 * by URL, so they decide what is measured):
 * - (1) and (6) repeat one query: the hot path (REST: the cached answer; MCP: the result cache).
 * - (2) cycles through over 30,000 distinct (words, page) searches: a cycle longer than both
 *   least-recently-used caches (10,000 answers, 5,000 results), so every request runs the
 *   search (the uncached path). The per-pass ignored parameter no longer matters: the response
 *   cache keys on the parsed input, not the URL.
 * - (3) and (4) cycle through the published brokers (up to 20,000 of them) in a shuffled
 *   order: uniform access over the directory. At 1,000 brokers it all fits the cache; at
 *   100,000 the 20,000 cycled through don't, so most requests miss it. A detail is then sent
 *   from its rendered text (src/storage/search/renderedAnswers.ts; built from the search index's
 *   memory, detailColumns.ts, until the rendering that the first detail request starts is done:
 *   within the scenario's warm-up). A review page is read from SQLite the first time a broker's
 *   is asked (the warm-up asks most of the cycle once) and sent from its kept text after that.
 * - (5) posts a quote: priced and written to the database on every request.
 * - (13)–(15) post a lead (issue 28's figures): plain; with a fresh Idempotency-Key each (its
 *   record is written in the lead's transaction); and in a workspace with one webhook endpoint
 *   wanting lead.created (the outbox rows in the same transaction; the server runs with
 *   WEBHOOKS_DELIVERY=false, and the deliveries are sent afterwards by another instance, measured
 *   apart: scripts/bench/webhookDrain.ts).
 */
import { Database } from "bun:sqlite";
import canada from "../../src/domain/canada.json" with { type: "json" };
import { BRAND_WORDS, BRAND_WORDS_FR, FIRST_NAMES_EN, FIRST_NAMES_FR, SPECIALTIES, SURNAMES_EN, SURNAMES_FR } from "../../src/demo/vocabulary.ts";
import { filterRequests, nearRequests, relevanceRequests } from "./discoveryScenarios.ts";
import type { LoadRequest } from "./wrk.ts";

/** Every scenario, in the order a run measures them (the list first: its body sizes the ceiling). */
export const SCENARIO_IDS = ["list", "search", "detail", "reviews", "quote", "mcp", "detailHot", "reviewsHot", "healthz", "near", "relevance", "filters", "lead", "leadKeyed", "leadHooked"] as const;

/** The scenarios whose key belongs to the workspace with a webhook endpoint (bench.ts registers it). */
export const HOOKED_SCENARIOS: readonly ScenarioId[] = ["leadHooked"];
export type ScenarioId = (typeof SCENARIO_IDS)[number];

export interface Scenario {
  id: ScenarioId;
  label: string;
  /** A readable sample of what is sent. */
  sample: string;
  requests: LoadRequest[];
  /** The status every answer must have for the scenario to count. */
  expectStatus: number;
  /** What is wrong with a body of the expected status, if anything (JSON-RPC errors are 200s). */
  problemIn?: (body: string) => string | undefined;
}

/**
 * Up to `max` published brokers in a fixed shuffled order. (The cap also keeps wrk's Lua
 * script under LuaJIT's 65,536 constants per function.)
 */
export function publishedBrokers(databasePath: string, max = 20_000): { id: number; slug: string }[] {
  const db = new Database(databasePath, { readonly: true });
  try {
    const rows = db.query<{ id: number; slug: string }, [number]>("SELECT id, slug FROM brokers WHERE published = 1 ORDER BY id LIMIT ?").all(max);
    return shuffle(rows, 2026);
  } finally {
    db.close();
  }
}

/** Free-text searches a directory user might type: names, brands, cities, specialties, pairs. */
export function searchQueries(): string[] {
  const cities = canada.provinces.flatMap((p) => p.cities.map((c) => c.name));
  const singles = [...SURNAMES_EN, ...SURNAMES_FR, ...FIRST_NAMES_EN, ...FIRST_NAMES_FR, ...BRAND_WORDS, ...BRAND_WORDS_FR, ...cities, ...SPECIALTIES];
  const pairs = [...FIRST_NAMES_EN, ...FIRST_NAMES_FR].flatMap((first) => [...SURNAMES_EN, ...SURNAMES_FR].map((last) => `${first} ${last}`));
  const prefixes = [...SURNAMES_EN, ...SURNAMES_FR, ...cities].map((word) => word.slice(0, 4));
  return shuffle([...new Set([...singles, ...pairs, ...prefixes])], 7);
}

export const QUOTE_BODY = {
  insuranceType: "Auto",
  province: "ON",
  postalCode: "M5V 3L9",
  details: { vehicleYear: 2020, vehicleMake: "Toyota", vehicleModel: "RAV4", driverAge: 35, cleanRecord: true },
};

export const MCP_PROTOCOL_VERSION = "2025-11-25";

export function buildScenarios(databasePath: string, keys: Record<ScenarioId, string>): Scenario[] {
  const auth = (id: ScenarioId) => ({ Authorization: `Bearer ${keys[id]}` });
  const get = (id: ScenarioId, path: string): LoadRequest => ({ method: "GET", path, headers: auth(id) });
  const brokers = publishedBrokers(databasePath);
  const queries = searchQueries();
  const searches = [1, 2, 3].flatMap((page) =>
    queries.map((q) => get("search", `/api/v1/brokers?q=${encodeURIComponent(q)}&limit=20&page=${page}`)),
  );
  const mcpCall = {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "search_brokers", arguments: { province: "ON", limit: 20 } },
  };
  return [
    {
      id: "list",
      label: "(1) GET /api/v1/brokers?province=ON&limit=20",
      sample: "/api/v1/brokers?province=ON&limit=20",
      requests: [get("list", "/api/v1/brokers?province=ON&limit=20")],
      expectStatus: 200,
    },
    {
      id: "search",
      label: "(2) GET /api/v1/brokers?q=… (uncached)",
      sample: `${searches.length.toLocaleString("en-CA")} distinct searches, e.g. ${decodeURIComponent(searches[0]!.path)}`,
      // The cycle is longer than the response cache (10,000) and the result cache (5,000): an
      // LRU serves none of it. (The per-pass ignored parameter is kept but no longer needed.)
      requests: searches.map((s) => ({ ...s, uniquePerPass: true })),
      expectStatus: 200,
    },
    {
      id: "detail",
      label: "(3) GET /api/v1/brokers/{slug}",
      sample: `${brokers.length.toLocaleString("en-CA")} brokers, e.g. /api/v1/brokers/${brokers[0]?.slug}`,
      requests: brokers.map((b) => get("detail", `/api/v1/brokers/${encodeURIComponent(b.slug)}`)),
      expectStatus: 200,
    },
    {
      id: "reviews",
      label: "(4) GET /api/v1/reviews/{id}",
      sample: `${brokers.length.toLocaleString("en-CA")} brokers, e.g. /api/v1/reviews/${brokers[0]?.id}`,
      requests: brokers.map((b) => get("reviews", `/api/v1/reviews/${b.id}`)),
      expectStatus: 200,
    },
    {
      id: "quote",
      label: "(5) POST /api/v1/embed/quotes",
      sample: `POST ${JSON.stringify(QUOTE_BODY)}`,
      requests: [
        { method: "POST", path: "/api/v1/embed/quotes", headers: { ...auth("quote"), "Content-Type": "application/json" }, body: JSON.stringify(QUOTE_BODY) },
      ],
      expectStatus: 201,
    },
    {
      id: "mcp",
      label: "(6) MCP tools/call search_brokers",
      sample: `POST /mcp ${JSON.stringify(mcpCall)}`,
      requests: [
        {
          method: "POST",
          path: "/mcp",
          headers: {
            ...auth("mcp"),
            "Content-Type": "application/json",
            Accept: "application/json, text/event-stream",
            "MCP-Protocol-Version": MCP_PROTOCOL_VERSION,
          },
          body: JSON.stringify(mcpCall),
        },
      ],
      expectStatus: 200,
      problemIn: (body) => {
        const message = JSON.parse(body) as { error?: unknown; result?: { isError?: boolean } };
        if (message.error || !message.result || message.result.isError) return `not a successful tool result: ${body.slice(0, 200)}`;
        return undefined;
      },
    },
    {
      id: "detailHot",
      label: "(7) GET /api/v1/brokers/{slug} (one hot broker)",
      sample: `/api/v1/brokers/${brokers[0]?.slug}`,
      requests: [get("detailHot", `/api/v1/brokers/${encodeURIComponent(brokers[0]?.slug ?? "")}`)],
      expectStatus: 200,
    },
    {
      id: "reviewsHot",
      label: "(8) GET /api/v1/reviews/{id} (one hot broker)",
      sample: `/api/v1/reviews/${brokers[0]?.id}`,
      requests: [get("reviewsHot", `/api/v1/reviews/${brokers[0]?.id}`)],
      expectStatus: 200,
    },
    {
      id: "healthz",
      label: "(9) GET /healthz (no key, no database)",
      sample: "/healthz",
      requests: [{ method: "GET", path: "/healthz", headers: {} }],
      expectStatus: 200,
    },
    discoveryScenario("near", "(10) near + sort=distance + 4 facets (distinct)", nearRequests((path) => get("near", path))),
    discoveryScenario("relevance", "(11) q + sort=relevance + 4 facets (distinct)", relevanceRequests((path) => get("relevance", path), queries)),
    discoveryScenario("filters", "(12) language + minRating + verified, sort=rating (distinct)", filterRequests((path) => get("filters", path))),
    leadScenario("lead", "(13) POST /api/v1/leads", auth("lead")),
    leadScenario("leadKeyed", "(14) POST /api/v1/leads with an Idempotency-Key", auth("leadKeyed"), "Idempotency-Key"),
    leadScenario("leadHooked", "(15) POST /api/v1/leads, one webhook endpoint", auth("leadHooked")),
  ];
}

export const LEAD_BODY = { name: "Bench Lead", email: "bench@example.ca", phone: "(416) 555-0199", insuranceType: "Home" };

function leadScenario(id: ScenarioId, label: string, headers: Record<string, string>, uniqueHeader?: string): Scenario {
  const sent = { ...headers, "Content-Type": "application/json", ...(uniqueHeader ? { [uniqueHeader]: "bench-" } : {}) };
  return {
    id,
    label,
    sample: `POST ${JSON.stringify(LEAD_BODY)}${uniqueHeader ? `, ${uniqueHeader}: bench-<run>-<thread>-<n> (new each request)` : ""}`,
    requests: [{ method: "POST", path: "/api/v1/leads", headers: sent, body: JSON.stringify(LEAD_BODY), uniqueHeader }],
    expectStatus: 201,
  };
}

function discoveryScenario(id: ScenarioId, label: string, requests: LoadRequest[]): Scenario {
  return {
    id,
    label,
    sample: `${requests.length.toLocaleString("en-CA")} distinct URLs, e.g. ${decodeURIComponent(requests[0]!.path)}`,
    requests,
    expectStatus: 200,
  };
}

/** A deterministic Fisher–Yates shuffle (mulberry32), so runs send the same sequence. */
export function shuffle<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
