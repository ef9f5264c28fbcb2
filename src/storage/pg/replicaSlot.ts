import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { OWNER_ONLY_MODE } from "../sqlite/ownerOnly.ts";

const LOCK = ".lock";
/** The replica file and the companions SQLite makes beside it. */
const COMPANIONS = ["", "-wal", "-shm", "-journal"];
/** A replica file without a lock is another start's takeover in progress, unless older than this. */
const ORPHAN_AFTER_MS = 10 * 60_000;

/** Who holds a slot: a process, told apart from a later one given the same pid. */
interface Holder {
  pid: number;
  /** The process's start time (/proc/PID/stat, clock ticks since boot); "" where there is no /proc. */
  started: string;
  /** The kernel's boot id: a holder from before a reboot is dead whatever its pid. */
  boot: string;
}

/**
 * One instance's place for its directory replica in a directory several instances on one machine
 * may share (REPLICA_DIR): `replica-<random>.db` beside `replica-<random>.lock`, which names the
 * process holding it — its pid, start time and the machine's boot id, so a recycled pid (pid 1 in
 * every container) is not taken for the dead holder.
 *
 * At start, `claim` reads every lock: a live holder's slot is left alone; a dead holder's is taken
 * over (the newest, whose file the caller may reuse) or deleted (the others). Taking over is a
 * rename of the lock — atomic, so of two instances starting at once only one gets a given slot.
 * A crash therefore leaves at most one replica per instance that ran here, and the next start
 * reuses it or removes it.
 *
 * @example
 * const slot = ReplicaSlot.claim("./data/replicas");
 * slot.takenOver;   // true: a dead instance's file, to check before reusing
 * openDatabase(slot.path);
 * slot.release();   // at a clean stop: the file stays for the next start
 */
export class ReplicaSlot {
  private constructor(
    /** The replica's SQLite file (it may not exist yet). */
    readonly path: string,
    /** Whether the file was left by an instance that is gone (its contents may be reused). */
    readonly takenOver: boolean,
    /** Dead instances' replicas this claim deleted. */
    readonly removedStale: number,
  ) {}

  /** Takes a slot in `dir` (made owner-only if missing), cleaning the dead ones it does not take. */
  static claim(dir: string): ReplicaSlot {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const me = currentHolder();
    const names = readdirSync(dir);
    const dead: { base: string; mtime: number }[] = [];
    for (const name of names) {
      if (!name.startsWith("replica-") || !name.endsWith(LOCK)) continue;
      const base = join(dir, name.slice(0, -LOCK.length));
      const holder = readHolder(base + LOCK);
      if (holder && isAlive(holder, me)) continue;
      // Mine now, or another start took it first (then it is theirs).
      const taken = `${base}${LOCK}.${randomBytes(4).toString("hex")}`;
      try {
        renameSync(base + LOCK, taken);
      } catch {
        continue;
      }
      writeHolder(base + LOCK, me);
      rmSync(taken, { force: true });
      dead.push({ base, mtime: existsSync(`${base}.db`) ? statSync(`${base}.db`).mtimeMs : 0 });
    }
    let removed = removeOrphans(dir, names);
    dead.sort((a, b) => b.mtime - a.mtime);
    const [newest, ...older] = dead;
    for (const slot of older) removeSlot(slot.base);
    removed += older.length;
    if (newest && newest.mtime > 0) return new ReplicaSlot(`${newest.base}.db`, true, removed);
    if (newest) {
      removeSlot(newest.base);
      removed++;
    }
    const base = join(dir, `replica-${randomBytes(8).toString("hex")}`);
    writeHolder(base + LOCK, me);
    return new ReplicaSlot(`${base}.db`, false, removed);
  }

  /** Deletes the replica's file (not reusable); the slot stays held. */
  clear(): void {
    for (const suffix of COMPANIONS) rmSync(this.path + suffix, { force: true });
  }

  /** Lets the slot go, the file kept for the next start to reuse. */
  release(): void {
    rmSync(this.base() + LOCK, { force: true });
    // The lock is left free for the next start, not deleted: it still marks the file as a slot.
    writeHolder(this.base() + LOCK, { pid: 0, started: "", boot: "" });
  }

  /** Lets the slot go and deletes it. */
  discard(): void {
    removeSlot(this.base());
  }

  private base(): string {
    return this.path.slice(0, -".db".length);
  }
}

function currentHolder(): Holder {
  return { pid: process.pid, started: startTimeOf(process.pid) ?? "", boot: bootId() };
}

/** Whether the process a lock names still runs (this one counts: a second replica of it). */
function isAlive(holder: Holder, me: Holder): boolean {
  if (holder.pid <= 0 || holder.boot !== me.boot) return false;
  if (me.started !== "") return startTimeOf(holder.pid) === holder.started;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Field 22 of /proc/PID/stat (after the parenthesised name, which may hold spaces); undefined for
 * a zombie (killed, not yet reaped: it holds nothing any more).
 */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[0] === "Z" || fields[0] === "X" ? undefined : fields[19];
  } catch {
    return undefined;
  }
}

let boot: string | undefined;
/** The kernel's id of this boot ("" where there is none): it changes at every reboot. */
export function bootId(): string {
  try {
    boot ??= readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  } catch {
    boot = "";
  }
  return boot;
}

function readHolder(path: string): Holder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as Partial<Holder>;
    if (typeof parsed.pid === "number" && typeof parsed.started === "string" && typeof parsed.boot === "string") return parsed as Holder;
  } catch {
    // Unreadable or half-written: the slot is a dead one's.
  }
  return undefined;
}

function writeHolder(path: string, holder: Holder): void {
  writeFileSync(path, JSON.stringify(holder), { mode: OWNER_ONLY_MODE });
}

/** Replica files whose lock is gone for long (a start that died while taking one over). */
function removeOrphans(dir: string, names: readonly string[]): number {
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith("replica-") || !name.endsWith(".db")) continue;
    const base = join(dir, name.slice(0, -".db".length));
    if (existsSync(base + LOCK)) continue;
    try {
      if (Date.now() - statSync(`${base}.db`).mtimeMs < ORPHAN_AFTER_MS) continue;
    } catch {
      continue;
    }
    removeSlot(base);
    removed++;
  }
  return removed;
}

/** The replica's files first, its lock last: a slot is never seen unlocked with a file in it. */
function removeSlot(base: string): void {
  for (const suffix of COMPANIONS) rmSync(`${base}.db${suffix}`, { force: true });
  rmSync(base + LOCK, { force: true });
}
