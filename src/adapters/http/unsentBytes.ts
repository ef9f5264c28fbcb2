import { readFileSync } from "node:fs";

/** Connection states in /proc/net/tcp that are still ours to finish: ESTABLISHED, CLOSE_WAIT. */
const OPEN_STATES = new Set(["01", "08"]);

/**
 * The bytes the kernel still holds unsent or unacknowledged on the open connections of the
 * server listening on `port` (the tx_queue column of Linux's /proc/net/tcp and tcp6), or
 * undefined where there is no such file. While Bun still buffers a slow client's body, the
 * kernel's queue for it is full; once it is empty, the client has every byte.
 */
export function unsentBytes(port: number): number | undefined {
  let total: number | undefined;
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    total ??= 0;
    for (const line of text.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 5 || !OPEN_STATES.has(fields[3]!)) continue;
      if (parseInt(fields[1]!.split(":")[1] ?? "", 16) !== port) continue;
      total += parseInt(fields[4]!.split(":")[0] ?? "0", 16) || 0;
    }
  }
  return total;
}
