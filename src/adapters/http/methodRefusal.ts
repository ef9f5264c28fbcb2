import { errorResponse, type ErrorAsker } from "./json.ts";

/**
 * The methods a path answers, as its Allow header and 405 say them. HEAD goes wherever GET
 * does (HTTP: the same answer without its body), so a GET route is offered as "GET, HEAD".
 */
export function allowedMethods(methods: readonly string[]): string[] {
  return methods.flatMap((method) => (method === "GET" ? ["GET", "HEAD"] : [method]));
}

/** The 405 for a method a path does not answer: a JSON {error} naming what it does, and the Allow header. */
export function methodNotAllowed(request: Request, asker: ErrorAsker, path: string, allowed: readonly string[], headers: Record<string, string> = {}): Response {
  const allow = allowed.join(", ");
  // The method is the client's text: cut, as the path is.
  return errorResponse(asker, "method_not_allowed", `${request.method.slice(0, 20)} is not allowed on ${path.slice(0, 200)}; use ${allow}.`, { ...headers, Allow: allow });
}

const READ_ONLY = allowedMethods(["GET"]);

/** GET and HEAD only (the pages, the probes, the documents, the assets): anything else is that 405. */
export function readOnlyRefusal(request: Request, asker: ErrorAsker, path: string): Response | undefined {
  if (request.method === "GET" || request.method === "HEAD") return undefined;
  return methodNotAllowed(request, asker, path, READ_ONLY);
}
