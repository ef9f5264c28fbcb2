import type { Context } from "../trpc.ts";
import { newEventId, type OutboxEvent } from "../../storage/stores/webhookOutbox.ts";

/**
 * The webhook event a procedure's write carries to the outbox, in the caller's workspace:
 * `data` is the resource as the REST API answers it.
 */
export function webhookEvent(ctx: Pick<Context, "services"> & { principal: { workspaceId: string } }, type: string, data: object, now: number): OutboxEvent {
  return { id: newEventId(now), workspaceId: ctx.principal.workspaceId, type, data: data as Record<string, unknown>, createdAt: now };
}

/** After a commit that queued deliveries: this instance's deliverer looks at once. */
export function deliverSoon(ctx: Pick<Context, "services">, queued: number): void {
  if (queued > 0) ctx.services.webhookBell.ring();
}
