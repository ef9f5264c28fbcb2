import { readFileSync } from "node:fs";

/**
 * A live process's resident memory from /proc/<pid>/status: all of it (VmRSS) and the anonymous
 * part (RssAnon: the heap, what a leak grows; the mapped executable and files are RssFile).
 */
export function memoryOf(pid: number): { rss: number; rssAnon: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => {
    const value = status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"))?.[1];
    if (!value) throw new Error(`no ${field} in /proc/${pid}/status`);
    return Number(value) * 1024;
  };
  return { rss: kb("VmRSS"), rssAnon: kb("RssAnon") };
}
