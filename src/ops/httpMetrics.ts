/**
 * The request metrics of one server, kept as plain counters in memory and rendered in the
 * Prometheus text format on scrape. Labels are bounded by construction: `route` is a route
 * pattern (or "(unmatched)"), never a raw path, so a scanner cannot blow up the series count.
 */
export const LATENCY_BUCKETS_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** Methods outside this list are counted as "OTHER" (a client can send any token as a method). */
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

interface LatencySeries {
  route: string;
  /** Cumulative counts are computed at render time; these are per-bucket counts (+Inf last). */
  buckets: number[];
  sum: number;
  count: number;
}

export class HttpMetrics {
  private readonly requests = new Map<string, { method: string; route: string; status: number; count: number }>();
  private readonly latency = new Map<string, LatencySeries>();
  private readonly rateLimited = new Map<string, number>();

  /** Called once per response by the front door. */
  record(method: string, route: string, status: number, seconds: number): void {
    const m = KNOWN_METHODS.has(method) ? method : "OTHER";
    const key = `${m} ${status} ${route}`;
    const counter = this.requests.get(key);
    if (counter) counter.count++;
    else this.requests.set(key, { method: m, route, status, count: 1 });

    let series = this.latency.get(route);
    if (!series) {
      series = { route, buckets: new Array(LATENCY_BUCKETS_SECONDS.length + 1).fill(0), sum: 0, count: 0 };
      this.latency.set(route, series);
    }
    let i = 0;
    while (i < LATENCY_BUCKETS_SECONDS.length && seconds > LATENCY_BUCKETS_SECONDS[i]!) i++;
    series.buckets[i]!++;
    series.sum += seconds;
    series.count++;

    if (status === 429) this.rateLimited.set(route, (this.rateLimited.get(route) ?? 0) + 1);
  }

  /** The metric families in Prometheus text exposition format 0.0.4. */
  render(): string {
    const lines: string[] = [];
    lines.push("# HELP broker_directory_http_requests_total HTTP requests answered, by method, route pattern and status.");
    lines.push("# TYPE broker_directory_http_requests_total counter");
    for (const c of this.requests.values()) {
      lines.push(`broker_directory_http_requests_total{method="${c.method}",route="${escapeLabel(c.route)}",status="${c.status}"} ${c.count}`);
    }

    lines.push("# HELP broker_directory_http_request_duration_seconds Time from request received to response ready, by route pattern.");
    lines.push("# TYPE broker_directory_http_request_duration_seconds histogram");
    for (const s of this.latency.values()) {
      const route = escapeLabel(s.route);
      let cumulative = 0;
      LATENCY_BUCKETS_SECONDS.forEach((le, i) => {
        cumulative += s.buckets[i]!;
        lines.push(`broker_directory_http_request_duration_seconds_bucket{route="${route}",le="${le}"} ${cumulative}`);
      });
      lines.push(`broker_directory_http_request_duration_seconds_bucket{route="${route}",le="+Inf"} ${s.count}`);
      lines.push(`broker_directory_http_request_duration_seconds_sum{route="${route}"} ${s.sum}`);
      lines.push(`broker_directory_http_request_duration_seconds_count{route="${route}"} ${s.count}`);
    }

    lines.push("# HELP broker_directory_rate_limit_rejections_total Requests refused with 429 because a key exceeded its rate limit.");
    lines.push("# TYPE broker_directory_rate_limit_rejections_total counter");
    if (this.rateLimited.size === 0) lines.push("broker_directory_rate_limit_rejections_total 0");
    for (const [route, count] of this.rateLimited) {
      lines.push(`broker_directory_rate_limit_rejections_total{route="${escapeLabel(route)}"} ${count}`);
    }
    return lines.join("\n") + "\n";
  }
}

/** Label values escape backslash, double quote and newline (the exposition format's rule). */
export function escapeLabel(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}
