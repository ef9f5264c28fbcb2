import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { sha256Hex } from "./apiKeyFormat.ts";

/**
 * The secrets of the workspace console and how long they live. Sign-in links and session ids
 * are 256 random bits, so an unsalted SHA-256 is enough to store them (nothing to brute-force);
 * the database only ever holds the hash.
 */
export const LINK_LIFETIME_MS = 15 * 60_000;
export const SESSION_IDLE_MS = 12 * 3_600_000;
export const SESSION_ABSOLUTE_MS = 7 * 86_400_000;

export function newSecret(): string {
  return randomBytes(32).toString("base64url");
}

export function hashSecret(secret: string): string {
  return sha256Hex(secret);
}

/** What a link token or session id looks like; anything else is refused before any lookup. */
export function looksLikeSecret(value: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(value);
}

/**
 * The session's CSRF token, derived from its secret (so nothing more is stored): the page reads
 * it from /console/api/session and sends it back in X-CSRF-Token on every change.
 */
export function csrfTokenFor(sessionSecret: string): string {
  return createHash("sha256").update(`csrf\u0000${sessionSecret}`).digest("base64url");
}

export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
