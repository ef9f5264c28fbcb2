/** A key's state at `now`, as listings show it. */
export type KeyStatus = "active" | "revoked" | "expired";

export function keyStatus(key: { revokedAt: number | null; expiresAt: number | null }, now: number): KeyStatus {
  if (key.revokedAt !== null) return "revoked";
  if (key.expiresAt !== null && key.expiresAt <= now) return "expired";
  return "active";
}
