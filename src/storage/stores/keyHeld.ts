import type { IdempotencyRecord } from "./idempotencyStore.ts";

/**
 * A creating write whose answer is known only once it has written (a new broker's or review's id
 * is numbered in the write): it writes, builds its answer from what it wrote, then claims the
 * request's idempotency key with it (KeyClaims), all in one transaction. When another request
 * holds the key, the write throws this, so the transaction is rolled back whole (nothing is
 * created twice) and `unlessHeld` hands the holder's record back for the caller to answer from.
 */
export class KeyHeldError extends Error {
  constructor(readonly held: IdempotencyRecord) {
    super("the idempotency key is held by another request");
  }
}

/** What a write that claims a key gives: its own result, or the record of the request holding the key. */
export type OrHeld<T> = { written: T } | { held: IdempotencyRecord };

export async function unlessHeld<T>(write: Promise<T>): Promise<OrHeld<T>> {
  try {
    return { written: await write };
  } catch (error) {
    if (error instanceof KeyHeldError) return { held: error.held };
    throw error;
  }
}
