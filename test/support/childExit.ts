import { readFileSync } from "node:fs";

/**
 * A child process's end, even when Bun misses it. In long test files that spawn many children,
 * Bun 1.3 sometimes never resolves `Subprocess.exited` for a child that has exited: the child
 * sits as a zombie (`State: Z` in /proc) that Bun never reaps (oven-sh/bun#34069 describes the
 * same lost exit for spawnSync). Seen in full runs as an afterAll timing out on a server that
 * had shut down cleanly. This waits for `exited` or, polling /proc (Linux), for the child to be a
 * zombie, whose exit status the kernel keeps in /proc/PID/stat (field 52) until it is reaped. A
 * child gone from /proc before Bun reported it (reaped by someone else) gives null.
 *
 * @example
 * proc.kill("SIGTERM");
 * await childExit(proc);
 */
export async function childExit(proc: Pick<Bun.Subprocess, "exited" | "pid">, pollMs = 100): Promise<number | null> {
  let polling = true;
  const ended = (async () => {
    while (polling) {
      await Bun.sleep(pollMs);
      if (!polling) break;
      const status = zombieStatus(proc.pid);
      if (status !== undefined) return status;
    }
    return null;
  })();
  try {
    return await Promise.race([proc.exited, ended]);
  } finally {
    polling = false;
  }
}

/** The exit code of a zombie (128 + signal if killed, as Bun reports), null if gone, undefined while it runs. */
function zombieStatus(pid: number): number | null | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // "pid (comm) state ...": comm may hold spaces and parentheses, so fields count from the last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).trim().split(" ");
  if (fields[0] !== "Z") return undefined;
  const wait = Number(fields[49]); // field 52 of the whole line: the waitpid status
  if (!Number.isFinite(wait)) return null;
  const signal = wait & 0x7f;
  return signal === 0 ? (wait >> 8) & 0xff : 128 + signal;
}
