import { describe, expect, test } from "bun:test";
import { createLogger, MAX_LOGGED_CHARS, scrubSecrets, type RequestLogFields } from "../../src/log.ts";

/** The bytes a field's value must have in the line: the scrubbed, cut text as JSON.stringify writes it. */
function expected(value: string | number | boolean | null): string {
  if (typeof value !== "string") return JSON.stringify(value);
  const cut = value.length <= MAX_LOGGED_CHARS ? value : `${value.slice(0, MAX_LOGGED_CHARS)}…[cut ${value.length - MAX_LOGGED_CHARS} chars]`;
  return JSON.stringify(scrubSecrets(cut));
}

function loggedField(value: string | number | boolean | null): string {
  const lines: string[] = [];
  createLogger("info", (line) => lines.push(line)).info("request", { field: value });
  const line = lines[0]!;
  expect(JSON.parse(line)).toHaveProperty("field"); // still one valid JSON object
  const start = line.indexOf(',"field":') + ',"field":'.length;
  return line.slice(start, -1);
}

describe("a log line's values", () => {
  test("are the bytes JSON.stringify of the scrubbed text gives, whichever way they were quoted", () => {
    const values = [
      "",
      "GET",
      "/api/v1/brokers/:slug",
      "(unmatched)",
      "3f0c2a9e-2b1c-4f55-9d7e-0a1b2c3d4e5f",
      "key_0123456789abcdef",
      "a quote \" inside",
      "a backslash \\ inside",
      "a newline \n and a tab \t and a NUL \u0000",
      "caf\u00e9 \u2028 \ud83d\ude00 and a lone \ud800",
      "my key is brk_abcdefghijklmnop, keep it",
      "brk_short",
      "mail jane.doe@example.com today",
      "user@localhost",
      "x".repeat(255),
      "y".repeat(300),
      "z".repeat(MAX_LOGGED_CHARS + 10),
      "<script>alert(1)</script> {json} [list] ~^`|",
      0,
      -1.25,
      12.34,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      true,
      null,
    ];
    for (const value of values) expect(loggedField(value)).toBe(expected(value));
  });

  test("no control character reaches the line raw: C0 (JSON's escapes), C1 and bidi controls as \\u escapes, read back as sent", () => {
    const hostile = "\u001b[2K\u001b[1Arow\u009b2J\u001b]52;c;aGk=\u0007 \u202eevil\u2066 \u007f";
    const quoted = loggedField(hostile);
    expect(quoted).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(quoted).toContain("\\u009b");
    expect(quoted).toContain("\\u202e");
    expect(JSON.parse(quoted)).toBe(hostile);
  });

  test("a key or an address never reaches the line", () => {
    expect(loggedField("id brk_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefg")).not.toContain("ABCDEFGH");
    expect(loggedField("from ann@example.org")).not.toContain("ann@example.org");
  });
});

describe("the access-log line", () => {
  /** Both lines of one request: the hot formatter's and the general one's (time aside, which may tick between them). */
  function both(fields: RequestLogFields): [string, string] {
    const lines: string[] = [];
    const log = createLogger("info", (line) => lines.push(line.replace(/^\{"time":"[^"]*"/, "")));
    log.request(fields);
    log.info("request", { ...fields, ms: Math.round(fields.ms * 100) / 100 });
    return [lines[0]!, lines[1]!];
  }

  test("is the line the general formatter writes, byte for byte", () => {
    const durations = [0, 0.001, 0.004, 0.005, 0.05, 0.1, 0.12, 0.126, 1, 1.2, 1.25, 9.999, 10, 99.995, 123.45, 1234.5, 60_000.01, 1e13, 1e16, Number.NaN];
    const ids = ["3f0c2a9e-2b1c-4f55-9d7e-0a1b2c3d4e5f", "client.id:1-2_3", "brk_abcdefghijklmnopqrstuvwxyz", `x${"y".repeat(300)}`];
    const methods = ["GET", "POST", "BREW", 'W"EIRD'];
    const routes = ["/healthz", "/api/v1/brokers/:slug", "(unmatched)", "/trpc/(batch)", "route with brk_abcdefghijk and a@b.example"];
    for (const ms of durations) expect(new Set(both({ requestId: ids[0]!, method: "GET", route: "/healthz", status: 200, ms }))).toHaveProperty("size", 1);
    for (const requestId of ids) {
      for (const method of methods) {
        for (const route of routes) {
          for (const keyId of [undefined, "key_0123456789abcdef", "odd\"key"]) {
            const [hot, general] = both({ requestId, method, route, status: 404, ms: 1.5, keyId });
            expect(hot).toBe(general);
          }
        }
      }
    }
  });

  test("is not written below level info", () => {
    const lines: string[] = [];
    createLogger("warn", (line) => lines.push(line)).request({ requestId: "a", method: "GET", route: "/healthz", status: 200, ms: 1 });
    expect(lines).toEqual([]);
  });
});
