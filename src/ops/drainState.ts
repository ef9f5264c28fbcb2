/**
 * Whether this process has begun to stop. From SIGTERM on, /readyz answers 503 at once while
 * the server keeps serving for the drain period (`--drain`), so a load balancer polling
 * /readyz takes the instance out of rotation before it stops accepting connections.
 *
 * @example
 * const drain = new DrainState();
 * drain.begin();        // on SIGTERM
 * drain.draining;       // true: /readyz says "stopping"
 */
export class DrainState {
  #draining = false;

  begin(): void {
    this.#draining = true;
  }

  get draining(): boolean {
    return this.#draining;
  }
}
