/** How long a missing sequence number is waited for before it is taken for a rolled-back write. */
const GAP_WAIT_MS = 60_000;
/** At most this many missing numbers are watched; past it the replica reloads (never seen in practice). */
const MAX_GAPS = 1_000;

/**
 * Where the replica is in PostgreSQL's change journal. Sequence numbers are taken when a row is
 * written, not when its transaction commits: a slow writer's change can commit after a later
 * number was already read. So a number skipped on the way (a gap) is watched for a while, and
 * the journal is read again from the oldest watched gap; re-reading a change only re-reads a
 * broker, which is harmless. A gap never filled (a rolled-back write) is forgotten after a minute.
 *
 * @example
 * const cursor = new JournalCursor(seenAtLoad);
 * const rows = await journalAfter(cursor.readFrom());
 * const fresh = cursor.take(rows.map((r) => r.seq), Date.now()); // only the new ones
 */
export class JournalCursor {
  private last: number;
  private readonly gaps = new Map<number, number>();

  /** `seen`: the sequence numbers visible when the replica was loaded (their changes are in it). */
  constructor(seen: readonly number[], now = Date.now()) {
    this.last = 0;
    this.take(seen, now);
  }

  /** The journal is read from after this number. */
  readFrom(): number {
    let from = this.last;
    for (const seq of this.gaps.keys()) if (seq - 1 < from) from = seq - 1;
    return from;
  }

  /** The highest sequence number taken. */
  latest(): number {
    return this.last;
  }

  /** Whether the gaps outgrew what is watched (the caller reloads everything). */
  overflowed(): boolean {
    return this.gaps.size > MAX_GAPS;
  }

  /** Whether a number read from the journal is not applied yet (take() it once it is). */
  isNew(seq: number): boolean {
    return seq > this.last || this.gaps.has(seq);
  }

  /**
   * Takes sequence numbers read from the journal (ascending); answers those not taken before.
   * Numbers skipped between them become gaps; gaps older than the wait are forgotten.
   */
  take(seqs: readonly number[], now: number): number[] {
    const fresh: number[] = [];
    for (const seq of seqs) {
      if (this.gaps.delete(seq)) {
        fresh.push(seq);
      } else if (seq > this.last) {
        // The first read (last = 0) has nothing before it to wait for.
        if (this.last > 0) for (let missing = this.last + 1; missing < seq && this.gaps.size <= MAX_GAPS; missing++) this.gaps.set(missing, now);
        this.last = seq;
        fresh.push(seq);
      }
    }
    for (const [seq, since] of this.gaps) if (now - since > GAP_WAIT_MS) this.gaps.delete(seq);
    return fresh;
  }
}
