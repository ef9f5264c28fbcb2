import { writeOrCount } from "./logOutput.ts";
import { escapeControls } from "./domain/text.ts";

export const LOG_LEVELS = ["debug", "info", "warn", "error", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** The access-log line of one answered request (level info, message "request"). */
  request(fields: RequestLogFields): void;
}

/**
 * What the access log says of a request, by design only this: a route pattern (never the raw
 * path or query, which can hold names or emails), the key's id (never the key), no bodies, no
 * headers. `requestId` is requestIdFor's: a UUID or the client's id of `[A-Za-z0-9._:-]`.
 */
export interface RequestLogFields {
  requestId: string;
  method: string;
  route: string;
  status: number;
  ms: number;
  keyId?: string;
}

/**
 * One JSON object per line on stdout (errors on stderr). Callers pass only fields that are
 * safe to keep: key ids, never keys; lead ids, never names, emails or phones.
 */
export function createLogger(level: LogLevel, write: (line: string, isError: boolean) => void = defaultWrite): Logger {
  const threshold = LOG_LEVELS.indexOf(level);
  const emit = (lvl: Exclude<LogLevel, "silent">) => (message: string, fields: LogFields = {}) => {
    if (LOG_LEVELS.indexOf(lvl) < threshold) return;
    write(formatLine(lvl, message, fields), lvl === "error");
  };
  const logsRequests = LOG_LEVELS.indexOf("info") >= threshold;
  return {
    debug: emit("debug"),
    info: emit("info"),
    warn: emit("warn"),
    error: emit("error"),
    request: (fields) => {
      if (logsRequests) write(formatRequestLine(fields), false);
    },
  };
}

/**
 * The line `info("request", fields)` would write, byte for byte (test/unit/log-line.test.ts),
 * made for the hot path: one per request cost a fifth of a /healthz answer through the
 * general formatter, most of it in checking each value for characters to escape or scrub.
 * Here the request id needs only the key check (its characters are known), the method, route
 * and key id are quoted once each and remembered, and the duration is written from integers.
 */
function formatRequestLine({ requestId, method, route, status, ms, keyId }: RequestLogFields): string {
  const id = requestId.includes("brk_") || requestId.length > PLAIN_TEXT_MAX ? quoteText(requestId) : `"${requestId}"`;
  const line = `{"time":"${isoNow()}","level":"info","msg":"request","requestId":${id},"method":${quoteOnce(method)},"route":${quoteOnce(route)},"status":${status},"ms":${hundredths(ms)}`;
  return keyId === undefined ? `${line}}` : `${line},"keyId":${quoteOnce(keyId)}}`;
}

/** String(Math.round(ms * 100) / 100), from integers: a fraction's shortest decimal form is these digits. */
function hundredths(ms: number): string {
  const n = Math.round(ms * 100);
  if (!(n >= 0 && n < 1e15)) return JSON.stringify(n / 100);
  const whole = Math.floor(n / 100);
  const cents = n - whole * 100;
  if (cents === 0) return `${whole}`;
  if (cents % 10 === 0) return `${whole}.${cents / 10}`;
  return cents < 10 ? `${whole}.0${cents}` : `${whole}.${cents}`;
}

/**
 * Values of a small, fixed vocabulary (methods, route patterns, key ids) as quoteText writes
 * them, computed once each. Bounded: past the cap a value is quoted afresh each time.
 */
const quotedValues = new Map<string, string>();
const QUOTED_VALUES_MAX = 4_096;

function quoteOnce(text: string): string {
  let quoted = quotedValues.get(text);
  if (quoted === undefined) {
    quoted = quoteText(text);
    if (quotedValues.size < QUOTED_VALUES_MAX && text.length <= PLAIN_TEXT_MAX) quotedValues.set(text, quoted);
  }
  return quoted;
}

/**
 * `{"time":…,"level":…,"msg":…,<fields>}`, written out field by field: one line per request
 * is on the hot path, and copying the fields into a scrubbed object to stringify it cost a
 * fifth of a /healthz answer. Undefined fields are left out, as JSON.stringify leaves them.
 */
function formatLine(level: string, message: string, fields: LogFields): string {
  let line = `{"time":"${isoNow()}","level":"${level}","msg":${quoteText(message)}`;
  for (const name in fields) {
    const value = fields[name];
    if (value === undefined) continue;
    line += `,${quoteName(name)}:${typeof value === "string" ? quoteText(value) : typeof value === "number" && Number.isFinite(value) ? String(value) : JSON.stringify(value)}`;
  }
  return `${line}}`;
}

/**
 * Text JSON writes as it is and the scrubber leaves alone: printable ASCII without `"`, `\`
 * or `@`, short, and holding no `brk_`. Most logged values (ids, routes, methods) are such text,
 * and quoting it by hand gives the very bytes JSON.stringify(scrubSecrets(cut(text))) would.
 */
const PLAIN_TEXT = /^[A-Za-z0-9 !#$%&'()*+,\-./:;<=>?[\]^_`{|}~]*$/;
const PLAIN_TEXT_MAX = 256;

function quoteText(text: string): string {
  if (text.length <= PLAIN_TEXT_MAX && PLAIN_TEXT.test(text) && !text.includes("brk_")) return `"${text}"`;
  // JSON escapes C0 controls; escapeControls also the C1 and bidi ones a terminal tailing the log would obey.
  return escapeControls(JSON.stringify(scrubSecrets(cut(text))));
}

/** Field names are the code's own words: each is quoted once (at most a few hundred are kept). */
const quotedNames = new Map<string, string>();

function quoteName(name: string): string {
  let quoted = quotedNames.get(name);
  if (quoted === undefined) {
    quoted = JSON.stringify(name);
    if (quotedNames.size < 512) quotedNames.set(name, quoted);
  }
  return quoted;
}

/** The current time in ISO 8601, formatted once per millisecond however many lines share it. */
let isoMillis = -1;
let isoText = "";
function isoNow(): string {
  const now = Date.now();
  if (now !== isoMillis) {
    isoMillis = now;
    isoText = new Date(now).toISOString();
  }
  return isoText;
}

/**
 * Standard output is buffered: one write call per request line cost a fifth of the read path's
 * throughput. Lines are flushed when 64 KiB have gathered, within 50 ms otherwise, and on exit.
 * Errors go to stderr unbuffered, so they are never lost to a crash.
 */
let stdoutBuffer = "";
let flushTimer: ReturnType<typeof setTimeout> | undefined;

export function flushLog(): void {
  if (flushTimer) clearTimeout(flushTimer);
  flushTimer = undefined;
  if (stdoutBuffer === "") return;
  const text = stdoutBuffer;
  stdoutBuffer = "";
  writeOrCount(process.stdout, text);
}

process.on("exit", flushLog);

function defaultWrite(line: string, isError: boolean): void {
  if (isError) {
    flushLog();
    writeOrCount(process.stderr, line + "\n");
    return;
  }
  // Appended to one string (the engine keeps it as a rope until it is written): cheaper than
  // collecting lines in an array and joining them.
  stdoutBuffer += line + "\n";
  if (stdoutBuffer.length >= 64 * 1024) flushLog();
  else flushTimer ??= setTimeout(flushLog, 50).unref();
}

/**
 * A logged string is at most this long: cut before it is scrubbed, so no text from outside,
 * however long, makes the scrubber or the log line expensive. A stack fits.
 */
export const MAX_LOGGED_CHARS = 4_000;

function cut(text: string): string {
  return text.length <= MAX_LOGGED_CHARS ? text : `${text.slice(0, MAX_LOGGED_CHARS)}…[cut ${text.length - MAX_LOGGED_CHARS} chars]`;
}

// Every regex here is linear-time (test/unit/regex-safety.test.ts checks each one of src/ and
// widget/). An email pattern of the usual `[…]+@…` shape is not: searched through a long run of
// its characters it rescans the run from every position, which is quadratic (15 KB: 0.6 s).
const API_KEY_PATTERN = /brk_[A-Za-z0-9_-]{8,}/g;
/** A run of the characters an address is made of; each is tested in code (see looksLikeEmail). */
const EMAIL_CANDIDATE = /[A-Za-z0-9._%+@-]+/g;
const TOP_LEVEL_DOMAIN = /^[A-Za-z]{2,}$/;

/**
 * A last line of defence for text that reaches the log from elsewhere (an error message that
 * quotes its input, a stack): API keys and email addresses are masked. Callers still pass
 * only safe fields; this catches what slips through.
 */
export function scrubSecrets(text: string): string {
  if (!text.includes("brk_") && !text.includes("@")) return text;
  const keysMasked = text.replace(API_KEY_PATTERN, "brk_[redacted]");
  if (!keysMasked.includes("@")) return keysMasked;
  return keysMasked.replace(EMAIL_CANDIDATE, (run) => (looksLikeEmail(run) ? "[email redacted]" : run));
}

/** local@domain.tld: something before the last @, and a domain ending in a dot and two letters or more. */
function looksLikeEmail(run: string): boolean {
  const at = run.lastIndexOf("@");
  if (at <= 0) return false;
  let end = run.length;
  while (end > at + 1 && run[end - 1] === ".") end--; // a sentence's full stop is not part of it
  const dot = run.lastIndexOf(".", end - 1);
  return dot > at + 1 && TOP_LEVEL_DOMAIN.test(run.slice(dot + 1, end));
}
