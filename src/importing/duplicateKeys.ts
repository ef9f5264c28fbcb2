import type { ImportEvent } from "./importEvent.ts";
import { KeyTracker } from "./keyTracker.ts";

/**
 * Reports a record whose key an earlier record of the same file had. Both are passed on, in
 * order: the writer upserts by key, so the last one wins; the report names the earlier line.
 */
export class DuplicateKeys {
  private readonly tracker = new KeyTracker();

  /** `outcome` says what the repeat means, e.g. "this review replaces that one (the last wins)". */
  constructor(private readonly outcome: string) {}

  mark<T>(event: ImportEvent<T>, field: string, key: string): ImportEvent<T> {
    if (event.kind !== "record") return event;
    const earlier = this.tracker.seen(`${field}\0${key}`, event.line);
    if (earlier === undefined) return event;
    return { ...event, duplicate: { line: event.line, field, message: `"${key.slice(0, 60)}" was also on line ${earlier}: ${this.outcome}` } };
  }
}
