import type { Language } from "../../schemas/language.ts";
import type { ResponseSocket } from "./pacedStream.ts";

/** Facts about one HTTP request that adapters fill in and the access log reads. */
export interface RequestInfo {
  requestId: string;
  /** The service's origin as this request reached it, e.g. http://localhost:3000. */
  baseUrl: string;
  /** Route pattern (never the raw path, which may hold personal data). */
  route?: string;
  keyId?: string;
  /** The language the request asked for (Accept-Language): an error's `error` is worded in it. */
  language?: Language;
  /** The socket's peer address (server.requestIP): behind a reverse proxy, the proxy's. */
  clientAddress?: string;
  /** The connection's ports, for a streamed body that follows the client's pace (see pacedStream). */
  socket?: ResponseSocket;
  /** PUBLIC_URL, when the operator set it (then baseUrl is it, not the request's Host). */
  publicUrl?: string;
  /** Set by an adapter whose response already carries X-Request-Id (built in one go): the front door then leaves it be. */
  requestIdSent?: boolean;
  /** Set by an adapter whose response body is a stream: settles with its size once produced (or cut). */
  streaming?: Promise<number>;
}

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Keeps the client's X-Request-Id when it is sane, else makes one. */
export function requestIdFor(request: Request): string {
  const offered = request.headers.get("x-request-id");
  return offered && SANE_REQUEST_ID.test(offered) ? offered : crypto.randomUUID();
}
