import { AttemptThrottle } from "../../auth/attemptThrottle.ts";
import type { Principal } from "../../auth/admitRequest.ts";
import { csrfTokenFor, looksLikeSecret, sameSecret } from "../../auth/consoleSecrets.ts";
import { keyStatus } from "../../auth/keyStatus.ts";
import { OPERATOR_SCOPES, SCOPES, type Scope } from "../../auth/scopes.ts";
import { callProcedure } from "../../router/procedureCatalog.ts";
import type { Context } from "../../router/trpc.ts";
import type { Services } from "../../services.ts";
import type { ConsoleSession } from "../../storage/stores/consoleSessionStore.ts";
import type { Awaitable } from "../../storage/ports.ts";
import { retryAfterHeaders, toPublicError } from "../errorVocabulary.ts";
import { csvDownload, type CsvPage } from "../http/csvResponse.ts";
import { errorResponse, failureResponse, jsonResponse } from "../http/json.ts";
import { rateLimitHeaders } from "../http/rateLimitHeaders.ts";
import { readOnlyRefusal } from "../http/methodRefusal.ts";
import { readBodyBytes } from "../http/readBodyBytes.ts";
import { readJsonBody } from "../http/readJsonBody.ts";
import type { RequestInfo } from "../http/requestInfo.ts";
import type { TargetUrl } from "../http/splitUrl.ts";
import { withPathParams } from "../http/withPathParams.ts";
import { compilePaths, matchPath } from "../rest/pathMatcher.ts";
import { queryInput } from "../rest/restRoute.ts";
import { consoleScriptHandler } from "./consoleScript.ts";
import { SIGN_IN_REFERRER_POLICY, withConsoleHeaders } from "./consoleHeaders.ts";
import { badLinkPage, crossSitePage, htmlResponse, pageLanguage, shellPage, signInButtonPage, signInHelpPage, tooManyAttemptsPage } from "./consolePages.ts";
import { CONSOLE_SESSION_ROUTES, consoleRoutes } from "./consoleRoutes.ts";
import type { EmbedPreview } from "./embedPreview.ts";
import { clearedSessionCookie, sessionCookie, sessionSecretOf } from "./sessionCookie.ts";

/**
 * Bad sign-in links allowed per client address in 15 minutes; past them a bad link answers 429
 * (Retry-After) instead of 401. A good link is always checked first and always works: the
 * throttle slows guessing (hopeless anyway against 256-bit tokens) without locking out the
 * person who holds the right link, e.g. behind a proxy that gives everyone one address.
 */
const SIGN_IN_FAILURES = 10;
/** A sign-in form carries one token (43 characters) and nothing else: a body past this is not ours. */
const SIGN_IN_FORM_BYTES = 1024;
const SIGN_IN_WINDOW_MS = 15 * 60_000;
/** Console API calls per session per minute (the console is a person clicking). */
const SESSION_RATE_LIMIT = 600;
/**
 * A session acts with every scope of its workspace but the operator's (directory:write), which it
 * holds only when the operator gave its workspace a live key with it (`keys create --scopes
 * directory:write`): a partner's session never edits the directory.
 */
const CONSOLE_SCOPES: ReadonlySet<Scope> = new Set(SCOPES.filter((scope) => !OPERATOR_SCOPES.includes(scope)));
const EDITOR_CONSOLE_SCOPES: ReadonlySet<Scope> = new Set(SCOPES);

async function editsTheDirectory(services: Services, workspaceId: string): Promise<boolean> {
  const now = services.now();
  return (await services.keys.listIn(workspaceId)).some((key) => keyStatus(key, now) === "active" && key.scopes.includes("directory:write"));
}

export interface ConsoleOptions {
  /** PUBLIC_URL: https there makes the session cookie Secure. */
  publicUrl?: string;
  /** The embed key the embed-code preview uses on this origin (undefined: no preview, e.g. a read-only database). */
  previewKey?: () => Awaitable<string | undefined>;
}

/**
 * /console: the workspace console. Pages and its script, the one-time sign-in, and a JSON API
 * that calls the same procedures as REST with a principal for the session's workspace. Every
 * change needs the session's CSRF token (X-CSRF-Token) and this origin (Origin).
 */
export function createConsoleHandler(services: Services, options: ConsoleOptions = {}) {
  const secureCookies = options.publicUrl?.startsWith("https:") ?? false;
  const api = compilePaths(consoleRoutes.map((route) => ({ path: route.path, value: route })));
  const signInFailures = new AttemptThrottle(SIGN_IN_FAILURES, SIGN_IN_WINDOW_MS);
  const serveScript = consoleScriptHandler();

  return async function handleConsole(request: Request, url: TargetUrl, info: RequestInfo, clientAddress: string): Promise<Response> {
    return withConsoleHeaders(await route(request, url, info, clientAddress).catch((error: unknown) => storageUnavailable(error, info)));
  };

  /** Sessions and links live in the database: when it cannot answer (a storage fault, a lock held elsewhere), 503 and retry later. */
  function storageUnavailable(error: unknown, info: RequestInfo): Response {
    services.storage.report(error, "console");
    const failure = toPublicError(error);
    if (failure.status !== 503) throw error;
    return failureResponse(info, failure, retryAfterHeaders(failure));
  }

  async function route(request: Request, url: TargetUrl, info: RequestInfo, clientAddress: string): Promise<Response> {
    const path = url.pathname;
    if (path === "/console/console.js") {
      info.route = path;
      return serveScript(request, info);
    }
    if (path === "/console/sign-in") {
      info.route = path;
      return signIn(request, url, info, clientAddress);
    }
    if (path.startsWith("/console/api/")) return callApi(request, url, info);
    info.route = "/console/*";
    const refusal = readOnlyRefusal(request, info, "console pages");
    if (refusal) return refusal;
    const lang = pageLanguage(info);
    const session = await currentSession(request);
    // Without a session: how to get a link, and nothing of any workspace.
    return session ? htmlResponse(shellPage(lang)) : htmlResponse(signInHelpPage(lang), 401);
  }

  async function currentSession(request: Request): Promise<(ConsoleSession & { secret: string }) | undefined> {
    const secret = sessionSecretOf(request);
    if (!secret) return undefined;
    const session = await services.consoleSessions.resolve(secret, services.now());
    return session && { ...session, secret };
  }

  /**
   * Opening the link (GET) spends nothing: it shows one button that POSTs the token back from
   * this origin, so a mail scanner that prefetches the link leaves it usable, and another site
   * cannot sign a browser in to the attacker's workspace (login CSRF) with a link or a form.
   */
  async function signIn(request: Request, url: TargetUrl, info: RequestInfo, clientAddress: string): Promise<Response> {
    const lang = pageLanguage(info);
    if (request.method === "GET" || request.method === "HEAD") {
      const token = url.searchParams.get("token") ?? "";
      if (!looksLikeSecret(token)) return htmlResponse(badLinkPage(lang), 401);
      return htmlResponse(signInButtonPage(lang, token), 200, { "Referrer-Policy": SIGN_IN_REFERRER_POLICY });
    }
    if (request.method !== "POST") return errorResponse(info, "method_not_allowed", "Open the sign-in link, then press its button.", { Allow: "GET, HEAD, POST" });
    const refusal = originRefusal(request, new URL(info.baseUrl).origin);
    if (refusal) return htmlResponse(crossSitePage(lang), 403);
    const token = await formToken(request);
    const now = services.now();
    const workspaceId = token && looksLikeSecret(token) ? await services.consoleLinks.redeem(token, now) : undefined;
    if (!workspaceId) {
      // Past its allowance an address is told to wait (and not logged again for each guess).
      const wait = signInFailures.retryAfterSeconds(clientAddress, now);
      if (wait > 0) return htmlResponse(tooManyAttemptsPage(lang, wait), 429, { "Retry-After": String(wait) });
      signInFailures.recordFailure(clientAddress, now);
      // The address, never the token: a log reader must not be able to use a live link.
      services.log.warn("console sign-in refused: unknown, used or expired link", { address: clientAddress });
      return htmlResponse(badLinkPage(lang), 401);
    }
    // A fresh id at every sign-in; a session the browser already had is ended, not reused.
    const previous = sessionSecretOf(request);
    if (previous) await services.consoleSessions.end(previous, now);
    const secret = await services.consoleSessions.start(workspaceId, now);
    services.log.info("console sign-in", { workspaceId });
    return new Response(null, { status: 303, headers: { Location: "/console/keys", "Set-Cookie": sessionCookie(secret, secureCookies) } });
  }

  async function callApi(request: Request, url: TargetUrl, info: RequestInfo): Promise<Response> {
    const own = SESSION_PATHS.has(url.pathname);
    const matches = own ? [] : matchPath(api, url.pathname);
    info.route = own ? url.pathname : (matches[0]?.value.path ?? "/console/api/(unknown)");
    const session = await currentSession(request);
    if (!session) return errorResponse(info, "session_required", "Not signed in, or the session ended. Open a new sign-in link from 'broker-directory console-link'.");
    info.keyId = "console";
    const now = services.now();
    const rate = await services.rateLimiter.consume(`console:${session.idHash}`, SESSION_RATE_LIMIT, now);
    const headers = rateLimitHeaders(rate);
    if (!rate.allowed) return errorResponse(info, "rate_limited", `Too many console requests. Retry in ${rate.resetSeconds} s.`, headers);

    const changing = request.method !== "GET" && request.method !== "HEAD";
    if (changing) {
      const refusal = csrfRefusal(request, session.secret, new URL(info.baseUrl).origin);
      if (refusal) return errorResponse(info, refusal.code, refusal.message, headers);
    }
    if (url.pathname === "/console/api/session") {
      if (request.method !== "GET") return errorResponse(info, "method_not_allowed", "Use GET.", { ...headers, Allow: "GET" });
      const workspace = await services.keys.workspaceById(session.workspaceId);
      return jsonResponse(
        {
          data: {
            workspace: { id: session.workspaceId, name: workspace?.name ?? "" },
            csrfToken: csrfTokenFor(session.secret),
            endsAt: new Date(session.endsAt).toISOString(),
            // Whether the console shows the operator's pages; the directory routes check it again on every call.
            editsDirectory: await editsTheDirectory(services, session.workspaceId),
          },
        },
        200,
        headers,
      );
    }
    if (url.pathname === "/console/api/embed-preview") {
      if (request.method !== "GET") return errorResponse(info, "method_not_allowed", "Use GET.", { ...headers, Allow: "GET" });
      // PUBLIC_URL when set, else the origin this request came to: the address a partner's page loads the widget from.
      const preview: EmbedPreview = { widgetUrl: `${info.baseUrl}/widget.js`, previewKey: (await options.previewKey?.()) ?? null };
      return jsonResponse({ data: preview }, 200, headers);
    }
    if (url.pathname === "/console/api/sign-out") {
      if (request.method !== "POST") return errorResponse(info, "method_not_allowed", "Use POST.", { ...headers, Allow: "POST" });
      await services.consoleSessions.end(session.secret, now);
      return jsonResponse({ data: { signedOut: true } }, 200, { ...headers, "Set-Cookie": clearedSessionCookie(secureCookies) });
    }

    if (matches.length === 0) return errorResponse(info, "not_found", `No such console endpoint: ${url.pathname.slice(0, 200)}.`, headers);
    const match = matches.find((m) => m.value.method === request.method);
    if (!match) {
      const allowed = [...new Set(matches.map((m) => m.value.method))].join(", ");
      return errorResponse(info, "method_not_allowed", `${request.method} is not allowed here; use ${allowed}.`, { ...headers, Allow: allowed });
    }
    // The directory's write API: only for a workspace the operator gave a live directory:write key (the CLI's to grant).
    const scopes = match.value.procedure.startsWith("directory.") && (await editsTheDirectory(services, session.workspaceId)) ? EDITOR_CONSOLE_SCOPES : CONSOLE_SCOPES;
    const principal: Principal = { keyId: "console", workspaceId: session.workspaceId, scopes, origins: null };
    try {
      const ctx: Context = { services, principal, surface: "console", requestId: info.requestId, baseUrl: info.baseUrl };
      const route = match.value;
      const query = Object.fromEntries(url.searchParams);
      if (route.answer === "csv") {
        // Every page is streamed as one file (see csvDownload): the page cursor is never the browser's.
        const { cursor: _ignored, ...filters } = query;
        return await csvDownload({
          slots: services.downloads,
          bucket: `console:${session.idHash}`,
          readPage: (cursor) => callProcedure(ctx, route.procedure, queryInput({}, match.params, cursor === undefined ? filters : { ...filters, cursor })) as Promise<CsvPage>,
          charge: () => services.rateLimiter.consume(`console:${session.idHash}`, SESSION_RATE_LIMIT, services.now()),
          info,
          cut: services.drain.cut,
          onError: (error) => services.log.error("procedure failed", { requestId: info.requestId, route: info.route, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }),
          headers,
        });
      }
      const input = route.body ? withPathParams(await readJsonBody(request), match.params) : queryInput({}, match.params, query);
      const result = await callProcedure(ctx, route.procedure, input);
      return jsonResponse({ data: result }, route.status ?? 200, headers);
    } catch (error) {
      const failure = toPublicError(error);
      if (failure.internal) {
        services.log.error("procedure failed", { requestId: info.requestId, route: info.route, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
      }
      return failureResponse(info, failure, { ...headers, ...retryAfterHeaders(failure) });
    }
  }
}

/** Why a console change is refused, with its code. */
interface Refusal {
  code: "origin_not_allowed" | "csrf_token_invalid";
  message: string;
}

const refused = (code: Refusal["code"], message: string): Refusal => ({ code, message });

/**
 * Why a POST does not come from a page of this origin, or undefined when it does. Browsers send
 * Origin on every POST; Sec-Fetch-Site, when sent, must agree (a cross-site form says so).
 */
function originRefusal(request: Request, ownOrigin: string): Refusal | undefined {
  const origin = request.headers.get("origin");
  if (origin !== ownOrigin) return refused("origin_not_allowed", `Refused: a console change must come from ${ownOrigin} (Origin was ${origin ? JSON.stringify(origin.slice(0, 100)) : "absent"}).`);
  const site = request.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin") return refused("origin_not_allowed", `Refused: a console change must come from ${ownOrigin} (Sec-Fetch-Site was ${JSON.stringify(site.slice(0, 40))}).`);
  return undefined;
}

/** The token of the sign-in button's form (application/x-www-form-urlencoded), or undefined. */
async function formToken(request: Request): Promise<string | undefined> {
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(request.headers.get("content-type") ?? "")) return undefined;
  const bytes = await readBodyBytes(request, SIGN_IN_FORM_BYTES);
  if (bytes === "too-large" || bytes === "aborted") return undefined;
  return new URLSearchParams(new TextDecoder().decode(bytes)).get("token") ?? undefined;
}

const SESSION_PATHS = new Set(CONSOLE_SESSION_ROUTES.map((route) => route.path));

/**
 * Why a state-changing request is refused, or undefined when it carries this session's token
 * and comes from this origin. Both: the token stops forged requests from other sites, the
 * Origin check stops a page of ours that was tricked into sending one from elsewhere.
 */
function csrfRefusal(request: Request, secret: string, ownOrigin: string): Refusal | undefined {
  const refusal = originRefusal(request, ownOrigin);
  if (refusal) return refusal;
  const token = request.headers.get("x-csrf-token") ?? "";
  if (!sameSecret(token, csrfTokenFor(secret))) return refused("csrf_token_invalid", "Refused: missing or wrong X-CSRF-Token. Reload the console and try again.");
  return undefined;
}
