import type { z } from "zod";
import type { IdempotencyClaim } from "../idempotency.ts";
import type { IdempotencyRecord } from "../../storage/stores/idempotencyStore.ts";

/**
 * The answer of a directory create whose write found its idempotency key held by another request
 * (it wrote nothing): that request's stored answer (a replay), or a conflict. A held record is
 * only ever found through a claim, so `claim` is there; the schema only types the answer.
 */
export function answerFromHeld<S extends z.ZodType>(claim: IdempotencyClaim | undefined, held: IdempotencyRecord, _schema: S): z.output<S> {
  return claim!.answerFrom<z.output<S>>(held);
}
