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
  readonly #cut = new AbortController();

  begin(): void {
    this.#draining = true;
  }

  get draining(): boolean {
    return this.#draining;
  }

  /**
   * Aborted when the grace period is over: streamed bodies still being produced stop at once
   * (see pacedStream). Bun's forced stop closes their connections but waits for their
   * producers, so they must end themselves.
   */
  get cut(): AbortSignal {
    return this.#cut.signal;
  }

  cutStreams(): void {
    this.#cut.abort();
  }
}
