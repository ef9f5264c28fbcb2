import { randomBytes } from "node:crypto";

export const KEY_PREFIX = "brk_";
/** 32 random bytes = 256 bits, base64url: 43 characters after the prefix. */
const KEY_BYTES = 32;
const KEY_PATTERN = /^brk_[A-Za-z0-9_-]{43}$/;

export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(KEY_BYTES).toString("base64url");
}

/**
 * Keys are 256-bit random, so a fast unsalted SHA-256 is enough: there is nothing to
 * brute-force, and the lookup by hash never compares the secret itself with anything.
 */
export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

/** SHA-256 as hex: Bun's one-shot hash, the same digest as node:crypto's createHash in half the time. */
export function sha256Hex(text: string): string {
  return Bun.SHA256.hash(text, "hex");
}

export function looksLikeApiKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}

/** What listings show: enough to recognise a key, far too little to use it. */
export function displayPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.length + 6);
}
