import { ApiError, toApiError } from "../api.ts";

export { ApiError };

export interface Session {
  workspace: { id: string; name: string };
  csrfToken: string;
  endsAt: string;
  /** The workspace holds a live directory:write key (the operator's CLI gave it one): the Directory, Reviews and Import pages. */
  editsDirectory: boolean;
}

/**
 * The console's door to /console/api: the session cookie goes by itself (same origin, Path
 * /console); every change adds the session's CSRF token. Answers are `{ data }`.
 */
export class ConsoleApi {
  constructor(private readonly csrfToken: string) {}

  static async session(): Promise<Session> {
    return request<Session>("GET", "/console/api/session");
  }

  get<T>(path: string, query: Record<string, string | number | undefined> = {}): Promise<T> {
    return request<T>("GET", withQuery(path, query));
  }

  send<T>(method: "POST" | "PATCH" | "DELETE", path: string, body?: unknown): Promise<T> {
    return request<T>(method, path, body, this.csrfToken);
  }
}

export function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== "") params.set(name, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

async function request<T>(method: string, path: string, body?: unknown, csrfToken?: string): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (csrfToken) headers["X-CSRF-Token"] = csrfToken;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: "same-origin" });
  } catch (error) {
    throw new ApiError(0, error instanceof Error ? error.message : String(error));
  }
  if (!response.ok) throw await toApiError(response);
  return ((await response.json()) as { data: T }).data;
}
