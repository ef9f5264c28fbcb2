/**
 * Where the machine's CPU went during a measured run, in cores: the server, wrk, and
 * everything else. "other" well above zero means something else ran beside the benchmark
 * (a build, another test suite) and the figures understate the server.
 */
import { readFileSync } from "node:fs";

/** Linux reports CPU times in clock ticks; USER_HZ is 100 on every mainstream build. */
const TICKS_PER_SECOND = 100;

export interface CpuSnapshot {
  at: number;
  machineBusyTicks: number;
  processTicks: number;
}

export interface CpuShare {
  /** Cores busy on average: 1.0 = one core fully used. */
  server: number;
  loadGenerator: number;
  other: number;
}

export function cpuSnapshot(pid: number): CpuSnapshot {
  // cpu  user nice system idle iowait irq softirq steal …
  const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
  // /proc/<pid>/stat: the command may contain spaces, so count fields after its closing ")".
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const after = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const utime = Number(after[11]);
  const stime = Number(after[12]);
  return { at: performance.now(), machineBusyTicks: user + nice + system + irq + softirq + steal, processTicks: utime + stime };
}

/** CPU seconds (user + system) the process used between two snapshots of it. */
export function processCpuSeconds(before: CpuSnapshot, after: CpuSnapshot): number {
  return (after.processTicks - before.processTicks) / TICKS_PER_SECOND;
}

export function cpuShare(before: CpuSnapshot, after: CpuSnapshot, loadGeneratorCpuSeconds: number): CpuShare {
  const seconds = (after.at - before.at) / 1000;
  const cores = (ticks: number) => ticks / TICKS_PER_SECOND / seconds;
  const server = processCpuSeconds(before, after) / seconds;
  const busy = cores(after.machineBusyTicks - before.machineBusyTicks);
  const loadGenerator = loadGeneratorCpuSeconds / seconds;
  const round = (n: number) => Math.round(n * 100) / 100;
  return { server: round(server), loadGenerator: round(loadGenerator), other: round(Math.max(0, busy - server - loadGenerator)) };
}
