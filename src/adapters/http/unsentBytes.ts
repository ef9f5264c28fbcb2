import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";

/** Connection states in /proc/net/tcp that are still ours to finish: ESTABLISHED, CLOSE_WAIT. */
const OPEN_STATES = new Set(["01", "08"]);
const TCP_TABLES = ["/proc/net/tcp", "/proc/net/tcp6"];

/**
 * The bytes the kernel still holds unsent or unacknowledged on the open connections of the
 * server listening on `port` (the tx_queue column of Linux's /proc/net/tcp and tcp6), or
 * undefined where there is no such file. While Bun still buffers a slow client's body, the
 * kernel's queue for it is full; once it is empty, the client has every byte.
 */
export function unsentBytes(port: number): number | undefined {
  let total: number | undefined;
  for (const file of TCP_TABLES) {
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

/**
 * The kernel's send queue (unsent or unacknowledged bytes) of one connection, from our
 * `serverPort` to the client's `clientPort`, in the text of /proc/net/tcp and tcp6: a number,
 * or "closed" once the connection is gone (or closing). Read by SendQueueWatch, once for all
 * streams. Found by searching for the ports rather than parsing every line, so it costs little
 * with thousands of sockets listed. Two clients on other hosts may share a port number: then
 * the larger queue counts, which only makes a stream wait longer, never buffer more.
 */
export function connectionQueueIn(tables: readonly string[], serverPort: number, clientPort: number): number | "closed" {
  const local = `:${hex4(serverPort)} `;
  const remote = `:${hex4(clientPort)} `;
  let queue: number | undefined;
  for (const text of tables) {
    // A line: "  sl: LOCAL_ADDR:PORT REMOTE_ADDR:PORT ST TX_QUEUE:RX_QUEUE …".
    for (let at = text.indexOf(remote); at >= 0; at = text.indexOf(remote, at + 1)) {
      const fieldStart = text.lastIndexOf(" ", at) + 1;
      // The remote field is preceded by the local one, which must end with our port.
      if (text.slice(fieldStart - local.length, fieldStart) !== local) continue;
      const state = text.slice(at + remote.length, at + remote.length + 2);
      if (!OPEN_STATES.has(state)) continue;
      const tx = parseInt(text.slice(at + remote.length + 3, at + remote.length + 11), 16);
      if (Number.isFinite(tx)) queue = Math.max(queue ?? 0, tx);
    }
  }
  return queue ?? "closed";
}

/** The tables' text, read off the event loop, or undefined where there are none (no /proc, as on macOS). */
export async function readTcpTables(): Promise<string[] | undefined> {
  const texts: string[] = [];
  for (const file of TCP_TABLES) {
    try {
      texts.push(await readFile(file, "utf8"));
    } catch {
      // tcp6 is absent where IPv6 is off; both are absent without /proc.
    }
  }
  return texts.length > 0 ? texts : undefined;
}

function hex4(port: number): string {
  return port.toString(16).toUpperCase().padStart(4, "0");
}
