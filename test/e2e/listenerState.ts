import { readFileSync, readdirSync, readlinkSync } from "node:fs";

/**
 * What the test process can tell about a server it cannot reach: whether anything listens on its
 * port (Linux's /proc/net/tcp, state 0A), whether this process can still fetch it, and how many
 * sockets the process holds. Attached to a browser test's failure when a navigation to the
 * server is refused (seen twice in full CI runs, never in a file run alone), so the next failure
 * says whether the listener was gone or the browser was the one refusing.
 */
export async function listenerState(url: string): Promise<Record<string, unknown>> {
  const port = Number(new URL(url).port);
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  const listening = ["/proc/net/tcp", "/proc/net/tcp6"].some((table) =>
    readFileSync(table, "utf8").split("\n").some((line) => {
      const [, local, , state] = line.trim().split(/\s+/);
      return local?.endsWith(`:${hexPort}`) && state === "0A";
    }),
  );
  let fetched: string;
  try {
    fetched = String((await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(3_000) })).status);
  } catch (error) {
    fetched = error instanceof Error ? error.message : String(error);
  }
  const sockets = readdirSync("/proc/self/fd").filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).startsWith("socket:");
    } catch {
      return false;
    }
  }).length;
  return { port, listening, fetched, sockets, descriptors: readdirSync("/proc/self/fd").length };
}
