/**
 * Why an endpoint is disabled (issue 28). The API answers the reason as English text
 * (`disabledReason`, what the CLI and integrators read); written here once, so the console can
 * read it back and say it in its own language rather than matching prose it does not own.
 */
export const GONE_REASON = "the endpoint answered 410 Gone";
export const WORKSPACE_REASON = "disabled by the workspace";

/** An endpoint failing for the whole give-up window; `last` is the last attempt's error. */
export function failingReason(hours: number, last: string): string {
  return `failed for ${hours} h in a row (last: ${last})`;
}

export type DisabledReason =
  | { kind: "gone" }
  | { kind: "workspace" }
  | { kind: "failing"; hours: string; last: string }
  /** A reason written some other way (an older server's): shown as it is. */
  | { kind: "other"; text: string };

export function readDisabledReason(text: string): DisabledReason {
  if (text === GONE_REASON) return { kind: "gone" };
  if (text === WORKSPACE_REASON) return { kind: "workspace" };
  const failing = /^failed for ([\d.]+) h in a row \(last: (.*)\)$/s.exec(text);
  if (failing) return { kind: "failing", hours: failing[1]!, last: failing[2]! };
  return { kind: "other", text };
}
