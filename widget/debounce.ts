/** Runs the latest scheduled action once the caller has been quiet for `ms` (typing in a search box). */
export class Debouncer {
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly ms: number) {}

  schedule(action: () => void): void {
    this.cancel();
    this.timer = setTimeout(action, this.ms);
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
