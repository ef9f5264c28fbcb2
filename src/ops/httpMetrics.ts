/**
 * The request metrics of one server, kept as plain counters in memory and rendered in the
 * Prometheus text format on scrape. Labels are bounded by construction: `route` is a route
 * pattern (or "(unmatched)"), never a raw path, so a scanner cannot blow up the series count.
 */
export const LATENCY_BUCKETS_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** Methods outside this list are counted as "OTHER" (a client can send any token as a method). */
const KNOWN_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const OTHER = KNOWN_METHODS.length;
const METHOD_NAMES = [...KNOWN_METHODS, "OTHER"];

/** Everything counted for one route pattern: found with one lookup per request. */
interface RouteSeries {
  route: string;
  /** Requests by method and status, keyed `method index * 1000 + status`: numbers, not strings to build. */
  requests: Map<number, number>;
  /** Cumulative counts are computed at render time; these are per-bucket counts (+Inf last). */
  buckets: number[];
  sum: number;
  count: number;
  rateLimited: number;
}

export class HttpMetrics {
  private readonly routes = new Map<string, RouteSeries>();

  /** Called once per response by the front door. */
  record(method: string, route: string, status: number, seconds: number): void {
    let series = this.routes.get(route);
    if (!series) {
      series = { route, requests: new Map(), buckets: new Array(LATENCY_BUCKETS_SECONDS.length + 1).fill(0), sum: 0, count: 0, rateLimited: 0 };
      this.routes.set(route, series);
    }
    const m = KNOWN_METHODS.indexOf(method as (typeof KNOWN_METHODS)[number]);
    const key = (m < 0 ? OTHER : m) * 1000 + status;
    series.requests.set(key, (series.requests.get(key) ?? 0) + 1);
    let i = 0;
    while (i < LATENCY_BUCKETS_SECONDS.length && seconds > LATENCY_BUCKETS_SECONDS[i]!) i++;
    series.buckets[i]!++;
    series.sum += seconds;
    series.count++;
    if (status === 429) series.rateLimited++;
  }

  /** The metric families in Prometheus text exposition format 0.0.4. */
  render(): string {
    const lines: string[] = [];
    lines.push("# HELP broker_directory_http_requests_total HTTP requests answered, by method, route pattern and status.");
    lines.push("# TYPE broker_directory_http_requests_total counter");
    for (const s of this.routes.values()) {
      const route = escapeLabel(s.route);
      for (const [key, count] of s.requests) {
        const method = METHOD_NAMES[Math.floor(key / 1000)]!;
        lines.push(`broker_directory_http_requests_total{method="${method}",route="${route}",status="${key % 1000}"} ${count}`);
      }
    }

    lines.push("# HELP broker_directory_http_request_duration_seconds Time from request received to response ready, by route pattern.");
    lines.push("# TYPE broker_directory_http_request_duration_seconds histogram");
    for (const s of this.routes.values()) {
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
    const limited = [...this.routes.values()].filter((s) => s.rateLimited > 0);
    if (limited.length === 0) lines.push("broker_directory_rate_limit_rejections_total 0");
    for (const s of limited) lines.push(`broker_directory_rate_limit_rejections_total{route="${escapeLabel(s.route)}"} ${s.rateLimited}`);
    return lines.join("\n") + "\n";
  }
}

/** Label values escape backslash, double quote and newline (the exposition format's rule). */
export function escapeLabel(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}
