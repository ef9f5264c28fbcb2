/**
 * What an idempotency key and a webhook endpoint add to a lead POST (issue 28: the outbox must
 * cost under 15 % of lead throughput). Scenarios (13), (14) and (15) each run once in the bench,
 * one after another, and this machine drifts by ±10 % from one 8-second run to the next: more
 * than the costs measured. So here they run against the same server in turns of two seconds
 * ((13), (14), (15), then (14), (15), (13), …: each turn starts one further on, since whichever
 * runs first after another's writes measured slower), and each cost is the median over the turns
 * of 1 − (14 or 15) ÷ (13) of the same turn: a drift falls on all three of a turn alike, and the
 * database grows by the same leads under each.
 */
import { runWrk, type LoadRequest, type LoadSettings } from "./wrk.ts";
import { median } from "./median.ts";

export interface LeadPathCost {
  /** Median req/s of each scenario's turns. */
  leadRequestsPerSecond: number;
  keyedRequestsPerSecond: number;
  hookedRequestsPerSecond: number;
  /** Median over the turns of 1 − keyed ÷ lead, and of 1 − hooked ÷ lead (negative: within noise). */
  idempotencyCost: number;
  outboxCost: number;
  turns: number;
}

/** A multiple of three: each scenario is first, second and third equally often. */
const TURNS = 9;

export async function measureLeadPathCost(
  url: string,
  scenarios: { lead: LoadRequest[]; keyed: LoadRequest[]; hooked: LoadRequest[] },
  load: LoadSettings,
): Promise<LeadPathCost> {
  const turn = { ...load, durationSeconds: 2 };
  const rates = { lead: [] as number[], keyed: [] as number[], hooked: [] as number[] };
  for (let i = 0; i < TURNS; i++) {
    const order = (["lead", "keyed", "hooked"] as const).map((_, k, ids) => ids[(i + k) % ids.length]!);
    for (const id of order) rates[id].push((await runWrk(url, scenarios[id], turn)).requestsPerSecond);
  }
  const costOf = (side: number[]) => round(median(side.map((rate, i) => 1 - rate / rates.lead[i]!)));
  return {
    leadRequestsPerSecond: median(rates.lead),
    keyedRequestsPerSecond: median(rates.keyed),
    hookedRequestsPerSecond: median(rates.hooked),
    idempotencyCost: costOf(rates.keyed),
    outboxCost: costOf(rates.hooked),
    turns: TURNS,
  };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
