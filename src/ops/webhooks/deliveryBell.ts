/**
 * How a request that queued a webhook delivery tells this instance's deliverer to look now
 * rather than at its next poll, so the first attempt starts within moments of the commit. Other
 * instances' deliverers find it at their next poll (once a second).
 */
export class DeliveryBell {
  private listener: (() => void) | undefined;

  ring(): void {
    this.listener?.();
  }

  /** The deliverer's: one listener per bell. */
  listen(listener: (() => void) | undefined): void {
    this.listener = listener;
  }
}
