import { looksLikeSecret, SESSION_ABSOLUTE_MS } from "../../auth/consoleSecrets.ts";

export const SESSION_COOKIE = "bd_console";

/** The session secret from the Cookie header, when it has the right shape. */
export function sessionSecretOf(request: Request): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === SESSION_COOKIE) {
      const value = rest.join("=");
      return looksLikeSecret(value) ? value : undefined;
    }
  }
  return undefined;
}

/** HttpOnly, SameSite=Strict, only for /console, Secure when the public URL is https. */
export function sessionCookie(secret: string, secure: boolean): string {
  return `${SESSION_COOKIE}=${secret}; Path=/console; HttpOnly; SameSite=Strict; Max-Age=${SESSION_ABSOLUTE_MS / 1000}${secure ? "; Secure" : ""}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/console; HttpOnly; SameSite=Strict; Max-Age=0${secure ? "; Secure" : ""}`;
}
