/**
 * The widget's only door to the server: /api/v1/embed/* with the embed key as a bearer
 * token. It turns every failure into an ApiError the components can explain, and retries a
 * 429 once after the Retry-After the server asked for.
 */
export interface ApiConfig {
  base: string;
  key: string;
  /**
   * The widget's language, sent as Accept-Language so the server words its errors in it (a
   * French page shows French errors). A CORS-safelisted header: no preflight for it.
   */
  language?: string;
}

export interface FieldIssue {
  path: string;
  message: string;
}

/** status 0 means the request never got an answer (offline, DNS, CORS refusal). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly issues: readonly FieldIssue[] = [],
    /** The server's error code (its manual's errors page), when it sent one. */
    readonly code?: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

// A server asking for a long pause would otherwise freeze the widget; past this, give up.
const MAX_RETRY_WAIT_SECONDS = 30;

/** Seconds to wait from a Retry-After header (delta-seconds or an HTTP date). */
export function retryAfterSeconds(header: string | null, now = Date.now()): number {
  if (!header) return 1;
  const seconds = /^\d+$/.test(header.trim()) ? Number(header) : (Date.parse(header) - now) / 1000;
  return Number.isFinite(seconds) ? Math.max(0, seconds) : 1;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

export async function toApiError(response: Response): Promise<ApiError> {
  let message = `HTTP ${response.status}`;
  let issues: FieldIssue[] = [];
  let code: string | undefined;
  try {
    const body: unknown = await response.json();
    if (body && typeof body === "object") {
      const { error, issues: raw, code: sent } = body as { error?: unknown; issues?: unknown; code?: unknown };
      if (typeof error === "string") message = error;
      if (typeof sent === "string") code = sent;
      if (Array.isArray(raw)) {
        issues = raw.filter(
          (i): i is FieldIssue => !!i && typeof i.path === "string" && typeof i.message === "string",
        );
      }
    }
  } catch {
    // Not JSON (a proxy's HTML page, say): the status alone still explains enough.
  }
  return new ApiError(response.status, message, issues, code);
}

export interface RequestOptions {
  method?: "GET" | "POST";
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** Sent as Idempotency-Key (see SubmissionKeys): the server creates what a POST asks for once per key. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/**
 * One idempotency key per body a form submits: the same body sent again — a double click, the
 * visitor's retry after a network error, a proxy's re-send — carries the same key, so the
 * server creates one lead or quote and answers the rest with it; a changed body gets a new key.
 * After a success the next submission is a new request, even with the same body.
 */
export class SubmissionKeys {
  private last: { body: string; key: string } | undefined;

  keyFor(body: unknown): string {
    const text = JSON.stringify(body);
    if (this.last?.body !== text) this.last = { body: text, key: randomKey() };
    return this.last.key;
  }

  succeeded(): void {
    this.last = undefined;
  }
}

/** 128 random bits in hex: getRandomValues works on plain-http pages too, where randomUUID does not. */
function randomKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Calls `${base}/api/v1${path}` and returns the parsed JSON answer (an envelope such as `{ data }`). */
export async function apiRequest<T>(config: ApiConfig, path: string, options: RequestOptions = {}): Promise<T> {
  const url = new URL(`${withoutTrailingSlashes(config.base)}/api/v1${path}`);
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined && value !== "") url.searchParams.set(name, String(value));
  }
  const headers: Record<string, string> = { Accept: "application/json", Authorization: `Bearer ${config.key}` };
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  if (config.language) headers["Accept-Language"] = config.language;
  if (options.idempotencyKey) headers["Idempotency-Key"] = options.idempotencyKey;
  const init: RequestInit = {
    method: options.method ?? "GET",
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
    // The key travels in the header; cookies of the directory have no business here.
    credentials: "omit",
  };

  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(url.toString(), init);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      throw new ApiError(0, error instanceof Error ? error.message : String(error));
    }
    if (response.status === 429 && attempt === 0) {
      const wait = retryAfterSeconds(response.headers.get("Retry-After"));
      if (wait <= MAX_RETRY_WAIT_SECONDS) {
        await sleep(wait * 1000, options.signal);
        continue;
      }
    }
    if (!response.ok) throw await toApiError(response);
    return (await response.json()) as T;
  }
}

/** A loop rather than `/\/+$/`, which rescans a run of slashes from each position (every regex here is linear). */
function withoutTrailingSlashes(base: string): string {
  let end = base.length;
  while (end > 0 && base[end - 1] === "/") end--;
  return base.slice(0, end);
}
