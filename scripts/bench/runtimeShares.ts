/**
 * What `perf report --sort dso` and the engine's GC log say of a server's CPU, for
 * scripts/bench/runtimeShare.ts: the share of samples in the kernel (sockets, scheduling,
 * page faults), in Bun's own machine code (its HTTP server, JavaScriptCore's runtime and
 * collector, the C library), and in JavaScript compiled by the engine (ours and our
 * libraries'), and how often the engine collected and for how long.
 */

/** Where a CPU sample was, by the object file perf found its instruction in. */
export type CodeKind = "kernel" | "runtime" | "javascript";

export interface DsoShares {
  /** Shares of the samples, 0–1, summing to 1 over the kinds that had any. */
  shares: Record<CodeKind, number>;
  /** The lines perf printed, as read (for the record). */
  rows: { dso: string; share: number; kind: CodeKind }[];
}

/**
 * The kind of code an object file holds: `[kernel.kallsyms]` (and kernel modules) is the
 * kernel, `[JIT] tid N` is code the engine compiled, anything else (bun itself, libc, the
 * vdso) is the runtime.
 */
export function kindOfDso(dso: string): CodeKind {
  if (dso.startsWith("[kernel") || dso.endsWith(".ko")) return "kernel";
  if (dso.startsWith("[JIT]") || /^(jitted-|perf-\d+\.map)/.test(dso)) return "javascript";
  return "runtime";
}

/**
 * Reads `perf report --stdio --no-children --sort dso` output: one `  51.75%  bun.exe` line per
 * object file (comment lines start with `#`). Call-graph lines (`|`, `--`) are skipped.
 */
export function parseDsoReport(text: string): DsoShares {
  const rows: DsoShares["rows"] = [];
  for (const line of text.split("\n")) {
    const match = /^\s*(\d+(?:\.\d+)?)%\s+(\S.*?)\s*$/.exec(line);
    if (!match) continue;
    const dso = match[2]!;
    rows.push({ dso, share: Number(match[1]) / 100, kind: kindOfDso(dso) });
  }
  const shares: Record<CodeKind, number> = { kernel: 0, runtime: 0, javascript: 0 };
  const total = rows.reduce((sum, row) => sum + row.share, 0);
  if (total > 0) for (const row of rows) shares[row.kind] += row.share / total;
  return { shares, rows };
}

export interface Collections {
  eden: number;
  full: number;
  /** Each collection's pause in milliseconds (`p=…ms`), in order. */
  pausesMs: number[];
}

/**
 * Reads JavaScriptCore's GC log (BUN_JSC_logGC=1, on standard error): a collection is a
 * `START … => EdenCollection|FullCollection … p=<pause>ms … END]` line. Lines of anything else
 * in between (the server's own errors) are skipped.
 */
export function parseGcLog(text: string): Collections {
  const collections: Collections = { eden: 0, full: 0, pausesMs: [] };
  for (const match of text.matchAll(/START \S+ \d+kb => (Eden|Full)Collection\b[^\n]*? p=(\d+(?:\.\d+)?)ms/g)) {
    if (match[1] === "Eden") collections.eden++;
    else collections.full++;
    collections.pausesMs.push(Number(match[2]));
  }
  return collections;
}
