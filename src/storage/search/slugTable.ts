/**
 * The rank of a published broker by its slug, as an open-addressing hash table of ranks (4 bytes
 * a slot, twice as many slots as brokers: 0.75 MB at 100,000 brokers). The slugs themselves stay
 * in the list text (ListColumns): a probe compares the slug asked for with a rank's slug in place,
 * so neither building the table nor a lookup keeps a string per broker. A Map from slug to rank
 * would hold 94,000 more strings and entries (about 10 MB).
 *
 * Slugs match exactly, as `slug = ?` does in SQLite (binary collation).
 *
 * @example
 * const table = new SlugTable(n, (rank) => list.nameAndSlug(rank).slug, (rank, slug) => list.hasSlug(rank, slug));
 * table.rankOf("acme-insurance"); // its rank, or -1
 */
export class SlugTable {
  private readonly slots: Int32Array;
  private readonly mask: number;

  constructor(
    n: number,
    slugOf: (rank: number) => string,
    private readonly hasSlug: (rank: number, slug: string) => boolean,
  ) {
    let size = 16;
    while (size < 2 * n) size *= 2;
    this.slots = new Int32Array(size).fill(-1);
    this.mask = size - 1;
    for (let rank = 0; rank < n; rank++) {
      const slug = slugOf(rank);
      // A rank never written has an empty slug: no request names it.
      if (slug === "") continue;
      let slot = hashOf(slug) & this.mask;
      while (this.slots[slot] !== -1) slot = (slot + 1) & this.mask;
      this.slots[slot] = rank;
    }
  }

  /** The rank whose slug is exactly `slug`, or -1. */
  rankOf(slug: string): number {
    let slot = hashOf(slug) & this.mask;
    for (;;) {
      const rank = this.slots[slot]!;
      if (rank === -1 || this.hasSlug(rank, slug)) return rank;
      slot = (slot + 1) & this.mask;
    }
  }

  bytes(): number {
    return this.slots.byteLength;
  }
}

/** FNV-1a over the UTF-16 code units: one pass, linear in the slug's length. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
