import { expect } from "bun:test";
import type { TestServer } from "./server.ts";

/** A signed-in console session as a browser holds it: the cookie and the page's CSRF token. */
export interface ConsoleSession {
  cookie: string;
  csrfToken: string;
  workspaceId: string;
}

/** A fresh one-time link for the workspace (made as `console-link` would), as a path. */
export async function signInPath(server: TestServer, workspace: string, now = server.app.services.now()): Promise<string> {
  const { keys, consoleLinks } = server.app.services;
  // Awaited: over PostgreSQL the stores answer with promises.
  const { token } = await consoleLinks.create((await keys.ensureWorkspace(workspace, now)).id, now);
  return `/console/sign-in?token=${token}`;
}

/** The `name=value` of the Set-Cookie header, or undefined. */
export function cookieOf(response: Response): string | undefined {
  return response.headers.get("set-cookie")?.split(";")[0];
}

/**
 * Presses the sign-in button of a link page, as the browser sends it: a form POST of the token
 * from this origin (opening the link itself spends nothing). A header given as "" is left out.
 */
export async function pressSignIn(server: TestServer, path: string, headers: Record<string, string> = {}): Promise<Response> {
  const token = new URL(path, server.url).searchParams.get("token") ?? "";
  const merged = { Origin: server.url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded", ...headers };
  return server.request("/console/sign-in", {
    method: "POST",
    redirect: "manual",
    headers: Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== "")),
    body: new URLSearchParams({ token }).toString(),
  });
}

/** Signs in to the workspace's console through the real link and its button, and reads the session's CSRF token. */
export async function signIn(server: TestServer, workspace: string, headers: Record<string, string> = {}): Promise<ConsoleSession> {
  const path = await signInPath(server, workspace);
  expect((await server.request(path, { headers })).status).toBe(200);
  const response = await pressSignIn(server, path, headers);
  expect(response.status).toBe(303);
  const cookie = cookieOf(response)!;
  expect(cookie).toMatch(/^bd_console=[A-Za-z0-9_-]{43}$/);
  const info = await server.request("/console/api/session", { headers: { Cookie: cookie } });
  expect(info.status).toBe(200);
  const { data } = (await info.json()) as { data: { csrfToken: string; workspace: { id: string } } };
  return { cookie, csrfToken: data.csrfToken, workspaceId: data.workspace.id };
}

/** A console API call from the console's own page: cookie, same Origin, CSRF token. */
export function consoleRequest(
  server: TestServer,
  session: ConsoleSession,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = { Cookie: session.cookie, Origin: server.url, "X-CSRF-Token": session.csrfToken, ...init.headers };
  if (init.body !== undefined) headers["Content-Type"] = "application/json";
  return server.request(path, { method: init.method ?? "GET", headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
}
