import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * Answers that hold a secret (a new API key) are kept for idempotency replays only sealed:
 * AES-256-GCM under a key derived (HKDF-SHA-256) from the caller's own API key, which the
 * database never holds (only its hash), the workspace and the idempotency key. So a copy of the
 * database opens none of them; the caller who sent the request, sending it again, opens its own.
 */
const PREFIX = "sealed:v1:";

function sealingKey(callerKey: string, workspaceId: string, idempotencyKey: string): Buffer {
  return Buffer.from(hkdfSync("sha256", callerKey, workspaceId, `broker-directory idempotent answer\0${idempotencyKey}`, 32));
}

export function sealAnswer(text: string, callerKey: string, workspaceId: string, idempotencyKey: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", sealingKey(callerKey, workspaceId, idempotencyKey), iv);
  const sealed = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return PREFIX + [iv, sealed, cipher.getAuthTag()].map((part) => part.toString("base64url")).join(".");
}

/** The text sealed by sealAnswer; undefined when it is not sealed so or the key does not open it. */
export function openAnswer(stored: string, callerKey: string, workspaceId: string, idempotencyKey: string): string | undefined {
  if (!stored.startsWith(PREFIX)) return undefined;
  const [iv, sealed, tag] = stored.slice(PREFIX.length).split(".").map((part) => Buffer.from(part, "base64url"));
  if (!iv || !sealed || !tag) return undefined;
  try {
    const decipher = createDecipheriv("aes-256-gcm", sealingKey(callerKey, workspaceId, idempotencyKey), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(sealed), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}
