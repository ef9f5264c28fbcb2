/**
 * Console sign-in and sessions through the real server: one-time links (single use, 15 minutes,
 * throttled per address and never logged), the session cookie, rotation, idle and absolute
 * expiry, sign-out, --end-sessions, and sessions surviving a restart.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { consoleLinkCommand } from "../../src/cli/consoleLinkCommand.ts";
import { createLogger } from "../../src/log.ts";
import { consoleRequest, cookieOf, pressSignIn, signIn, signInPath } from "../support/console.ts";
import { eventually } from "../support/eventually.ts";
import { databaseFlags, startTestServer, type TestServer } from "../support/server.ts";

const HOUR = 3_600_000;
let server: TestServer;
const logLines: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ demo: false, app: { logger: createLogger("info", (line) => logLines.push(line)) } });
});
afterAll(() => server.close());

/** Runs `fn` with the server's clock at `at`, then puts the real clock back. */
async function at<T>(time: number, fn: () => Promise<T>): Promise<T> {
  const real = server.app.services.now;
  server.app.services.now = () => time;
  try {
    return await fn();
  } finally {
    server.app.services.now = real;
  }
}

const sessionWorks = async (cookie: string, on = server) => (await on.request("/console/api/session", { headers: { Cookie: cookie } })).status === 200;

/**
 * sessionWorks at `time`, and once it did, waits for its "last seen" to be stored: that write is
 * bookkeeping, made after the answer (over PostgreSQL a moment later), and the next step of the
 * clock must find it.
 */
async function usedAt(time: number, cookie: string): Promise<boolean> {
  const works = await at(time, () => sessionWorks(cookie));
  if (works) expect(await eventually(async () => (await server.rows("SELECT 1 FROM console_sessions WHERE last_seen_at >= ?", [time])).length > 0)).toBe(true);
  return works;
}

describe("sign-in links", () => {
  test("a link signs in once: 303 to a URL without the token and a strict, HttpOnly cookie for /console", async () => {
    const response = await pressSignIn(server, await signInPath(server, "acme"));
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/console/keys");
    const setCookie = response.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/^bd_console=[A-Za-z0-9_-]{43}; /);
    for (const attribute of ["Path=/console", "HttpOnly", "SameSite=Strict"]) expect(setCookie).toContain(attribute);
    expect(setCookie).not.toContain("Secure"); // plain http here; see the PUBLIC_URL test
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    expect(await sessionWorks(cookieOf(response)!)).toBe(true);
  });

  test("the same link a second time is refused and starts nothing", async () => {
    const path = await signInPath(server, "acme");
    expect((await pressSignIn(server, path)).status).toBe(303);
    const again = await pressSignIn(server, path);
    expect(again.status).toBe(401);
    expect(again.headers.get("set-cookie")).toBeNull();
    expect(await again.text()).toContain("console-link");
  });

  test("a link older than 15 minutes is refused; one of 14 minutes works", async () => {
    const now = Date.now();
    const stale = await signInPath(server, "acme", now - 15 * 60_000 - 1);
    const fresh = await signInPath(server, "acme", now - 14 * 60_000);
    expect((await pressSignIn(server, stale)).status).toBe(401);
    expect((await pressSignIn(server, fresh)).status).toBe(303);
  });

  test("bad tokens are logged with the address, never the token", async () => {
    logLines.length = 0;
    const token = "A".repeat(43);
    expect((await pressSignIn(server, `/console/sign-in?token=${token}`)).status).toBe(401);
    const refusal = logLines.find((line) => line.includes("console sign-in refused"));
    expect(refusal).toBeDefined();
    expect(JSON.parse(refusal!).address).toBe("127.0.0.1");
    expect(logLines.join("\n")).not.toContain(token);
  });

  test("every /console page without a session shows how to get a link, and no data", async () => {
    await signIn(server, "acme"); // the workspace has a live session, just not in this request
    for (const path of ["/console", "/console/keys", "/console/leads", "/console/usage", "/console/leads/ld_x"]) {
      const response = await server.request(path);
      expect(response.status).toBe(401);
      const html = await response.text();
      expect(html).toContain("console-link --workspace");
      expect(html).not.toContain("acme");
      expect(html).not.toContain("<script");
    }
    const api = await server.request("/console/api/keys");
    expect(api.status).toBe(401);
    expect(((await api.json()) as { error: string }).error).toContain("Not signed in");
  });

  test("a forged or malformed cookie is no session", async () => {
    for (const cookie of ["bd_console=" + "B".repeat(43), "bd_console=../../etc", "bd_console="]) {
      expect((await server.request("/console/api/session", { headers: { Cookie: cookie } })).status).toBe(401);
    }
  });
});

describe("sessions", () => {
  test("signing in again gives a fresh session id and ends the one the browser had", async () => {
    const first = await signIn(server, "acme");
    const second = await signIn(server, "acme", { Cookie: first.cookie });
    expect(second.cookie).not.toBe(first.cookie);
    expect(await sessionWorks(first.cookie)).toBe(false);
    expect(await sessionWorks(second.cookie)).toBe(true);
  });

  test("idle for 12 hours ends a session; use within 12 hours keeps it, up to 7 days", async () => {
    const start = Date.now();
    const idle = await at(start, () => signIn(server, "acme"));
    expect(await usedAt(start + 12 * HOUR - 60_000, idle.cookie)).toBe(true);
    expect(await usedAt(start + 24 * HOUR - 120_000, idle.cookie)).toBe(true); // idle clock restarted
    expect(await at(start + 36 * HOUR, () => sessionWorks(idle.cookie))).toBe(false);

    const busy = await at(start, () => signIn(server, "acme"));
    let time = start;
    while (time + 11 * HOUR < start + 7 * 24 * HOUR) {
      time += 11 * HOUR;
      expect(await usedAt(time, busy.cookie)).toBe(true);
    }
    expect(await at(start + 7 * 24 * HOUR, () => sessionWorks(busy.cookie))).toBe(false);
  });

  test("Sign out ends the session and clears the cookie", async () => {
    const session = await signIn(server, "acme");
    const response = await consoleRequest(server, session, "/console/api/sign-out", { method: "POST" });
    expect(response.status).toBe(200);
    expect(response.headers.get("set-cookie")).toContain("Max-Age=0");
    expect(await sessionWorks(session.cookie)).toBe(false);
    expect((await server.request("/console/keys", { headers: { Cookie: session.cookie } })).status).toBe(401);
  });

  test("console-link --end-sessions ends every session of the workspace, and only of it", async () => {
    const mine = [await signIn(server, "ending"), await signIn(server, "ending")];
    const other = await signIn(server, "bystander");
    const printed: string[] = [];
    const log = console.log;
    console.log = (line: string) => printed.push(line);
    try {
      await consoleLinkCommand(["--workspace", "ending", "--end-sessions", "--json", ...databaseFlags(server)], {});
    } finally {
      console.log = log;
    }
    expect(JSON.parse(printed[0]!)).toEqual({ workspace: "ending", endedSessions: 2 });
    for (const session of mine) expect(await sessionWorks(session.cookie)).toBe(false);
    expect(await sessionWorks(other.cookie)).toBe(true);
  });

  test("the session page shows a signed-in workspace's console shell", async () => {
    const session = await signIn(server, "acme");
    const page = await server.request("/console/keys", { headers: { Cookie: session.cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<script src="/console/console.js" defer></script>');
    expect(html).toContain("<bd-console>");
  });

  test("a read-only database: a session last seen over a minute ago still reads (last seen is bookkeeping), and is seen again once writes work", async () => {
    const start = Date.now();
    const session = await at(start, () => signIn(server, "read-only"));
    const later = start + 2 * 60_000;
    // Two reads, each restarting the idle clock in the background: both writes must be refused
    // before writes work again, or the second could land after (as it once did in CI).
    await whileReadOnly(2, () =>
      at(later, async () => {
        const api = await consoleRequest(server, session, "/console/api/keys");
        expect(api.status, await api.clone().text()).toBe(200);
        const page = await server.request("/console/keys", { headers: { Cookie: session.cookie } });
        expect(page.status).toBe(200);
      }),
    );
    await server.app.services.storage.recheck(true);
    const lastSeen = async () => Number((await server.rows<{ t: number | string }>("SELECT last_seen_at AS t FROM console_sessions WHERE workspace_id = ?", [session.workspaceId]))[0]!.t);
    expect(await lastSeen()).toBe(start);
    expect(await at(later, () => sessionWorks(session.cookie))).toBe(true);
    expect(await eventually(async () => (await lastSeen()) === later)).toBe(true);
  });
});

/**
 * Runs `fn` with the database refusing writes as a read-only one does: SQLite's PRAGMA
 * query_only (SQLITE_READONLY); over PostgreSQL, a trigger raising 25006 (read-only
 * transaction, as on a standby) for the sessions table, so the pool's connections stay as they are.
 * Writes work again only once `refusals` writes were refused: bookkeeping is written in the
 * background, and over PostgreSQL it reaches the database after the answer (SQLite's group commit
 * fails it in the turn that answers). The trigger counts its refusals in a sequence, which a rollback
 * does not undo.
 */
async function whileReadOnly(refusals: number, fn: () => Promise<void>): Promise<void> {
  const pg = server.databaseUrl !== undefined;
  if (pg) {
    await server.rows("CREATE SEQUENCE refused_writes");
    await server.rows(
      "CREATE FUNCTION refuse_write() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM nextval('refused_writes'); RAISE EXCEPTION 'cannot execute UPDATE in a read-only transaction' USING ERRCODE = '25006'; END $$",
    );
    await server.rows("CREATE TRIGGER read_only BEFORE UPDATE ON console_sessions FOR EACH ROW EXECUTE FUNCTION refuse_write()");
  } else server.app.services.db.$client.exec("PRAGMA query_only = ON");
  try {
    await fn();
    if (pg) {
      const refused = async () => Number((await server.rows<{ n: number | string }>("SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS n FROM refused_writes"))[0]!.n);
      expect(await eventually(async () => (await refused()) >= refusals)).toBe(true);
    }
  } finally {
    if (pg) {
      await server.rows("DROP TRIGGER read_only ON console_sessions");
      await server.rows("DROP FUNCTION refuse_write()");
      await server.rows("DROP SEQUENCE refused_writes");
    } else server.app.services.db.$client.exec("PRAGMA query_only = OFF");
  }
}

describe("restart and deployment", () => {
  test("a session survives a restart of the server (stored hashed in the database)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "console-restart-"));
    const databasePath = join(dir, "directory.db");
    try {
      const before = await startTestServer({ demo: false, databasePath });
      const session = await signIn(before, "acme");
      await before.close();
      const after = await startTestServer({ demo: false, databasePath });
      try {
        const response = await after.request("/console/api/session", { headers: { Cookie: session.cookie } });
        expect(response.status).toBe(200);
        // The database holds only hashes: the cookie's secret appears nowhere in it.
        const secret = session.cookie.split("=")[1]!;
        const stored = await after.rows<{ id_hash: string }>("SELECT id_hash FROM console_sessions");
        expect(stored.length).toBeGreaterThan(0);
        expect(stored.some((row) => row.id_hash.includes(secret))).toBe(false);
      } finally {
        await after.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("with an https PUBLIC_URL the cookie is Secure", async () => {
    const secure = await startTestServer({ demo: false, app: { publicUrl: "https://brokers.example.ca" } });
    try {
      const response = await pressSignIn(secure, await signInPath(secure, "acme"), { Origin: "https://brokers.example.ca" });
      expect(response.headers.get("set-cookie")).toContain("; Secure");
    } finally {
      await secure.close();
    }
  });
});

describe("sign-in throttling", () => {
  test("after 10 bad links from one address, bad ones get 429 with Retry-After, and a good link still signs in (issue 25 item 10)", async () => {
    const throttled = await startTestServer({ demo: false });
    try {
      for (let i = 0; i < 10; i++) {
        expect((await pressSignIn(throttled, `/console/sign-in?token=${String(i).repeat(43)}`)).status).toBe(401);
      }
      const blocked = await pressSignIn(throttled, `/console/sign-in?token=${"x".repeat(43)}`);
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
      const good = await pressSignIn(throttled, await signInPath(throttled, "acme"));
      expect(good.status).toBe(303);
      expect(await sessionWorks(cookieOf(good)!, throttled)).toBe(true);
    } finally {
      await throttled.close();
    }
  });
});

describe("opening a link spends nothing; only its button, pressed on this site, signs in (issue 25 item 10)", () => {
  test("GET shows one button that POSTs the token here; a prefetcher opening it twice leaves it usable", async () => {
    const path = await signInPath(server, "acme");
    for (let i = 0; i < 2; i++) {
      const page = await server.request(path, { redirect: "manual", headers: { "Sec-Fetch-Site": "cross-site" } });
      expect(page.status).toBe(200);
      expect(page.headers.get("set-cookie")).toBeNull();
      const html = await page.text();
      expect(html).toContain('<form method="post" action="/console/sign-in">');
      expect(html).toContain(`value="${new URL(path, server.url).searchParams.get("token")}"`);
    }
    expect((await pressSignIn(server, path)).status).toBe(303);
  });

  const crossSite: [string, Record<string, string>][] = [
    ["from another site (login CSRF)", { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" }],
    ["with Sec-Fetch-Site: cross-site", { "Sec-Fetch-Site": "cross-site" }],
    ["with Sec-Fetch-Site: same-site", { "Sec-Fetch-Site": "same-site" }],
    ["without an Origin", { Origin: "" }],
  ];
  for (const [what, headers] of crossSite) {
    test(`a press ${what} is refused (403), signs nobody in and leaves the link usable`, async () => {
      const path = await signInPath(server, "acme");
      const refused = await pressSignIn(server, path, headers);
      expect(refused.status).toBe(403);
      expect(refused.headers.get("set-cookie")).toBeNull();
      expect((await pressSignIn(server, path)).status).toBe(303);
    });
  }

  test("other methods are 405 with Allow", async () => {
    const response = await server.request(await signInPath(server, "acme"), { method: "PUT" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD, POST");
  });
});
