import { chord2OfKm, kmOfChord2, unitVector, type LatLng } from "../../domain/geo/distance.ts";
import type { BrokerAttributes } from "./brokerAttributes.ts";

/**
 * Ranks (alphabetical positions) of published brokers, ascending, with an optional number per
 * rank: the squared chord of a near set (see nearSet), the bm25 score of a text set. Every filter is one of these;
 * a search intersects them.
 */
export interface RankSet {
  ranks: Int32Array;
  values?: Float64Array;
  /** For a large set: 1 at each member rank, so an intersection tests membership instead of searching. */
  member?: Uint8Array;
}

/** A set holding at least this share of all ranks gets a membership map (one byte a rank). */
const MEMBERSHIP_SHARE = 1 / 16;

/** The bytes a set holds, for the cache's accounting (its arrays; the header is in the entry overhead). */
export function rankSetBytes(set: RankSet): number {
  return set.ranks.byteLength + (set.values?.byteLength ?? 0) + (set.member?.byteLength ?? 0);
}

/** The set, with a membership map when it is large among `rankCount` ranks. */
export function withMembership(set: RankSet, rankCount: number): RankSet {
  if (set.member || set.ranks.length < rankCount * MEMBERSHIP_SHARE) return set;
  const member = new Uint8Array(rankCount);
  for (let i = 0; i < set.ranks.length; i++) member[set.ranks[i]!] = 1;
  return { ...set, member };
}

/**
 * Every broker with an office within `radiusKm` of `centre`, with the squared chord to its
 * nearest such office as its value (kmOfChord2 turns it into km; it orders like the distance).
 * Only the offices in grid cells the circle can reach are measured, each by its squared
 * chord to the centre (unit vectors: three products, no trigonometry); each broker keeps its
 * smallest. An office whose chord is within a rounding error of the radius's gets the exact
 * test in kilometres, so a broker is in the set exactly when kmOfChord2 puts an office in range.
 * The set lives in scratch space the attributes own, so a search over 30,000 offices allocates
 * nothing for it (less garbage, fewer collection pauses): it is valid until the next nearSet,
 * which suits a set that one search uses and never keeps.
 */
export function nearSet(attributes: BrokerAttributes, centre: LatLng, radiusKm: number): RankSet {
  const { x, y, z, rank: officeRank } = attributes.grid;
  const [cx, cy, cz] = unitVector(centre.lat, centre.lng);
  const limit = chord2OfKm(radiusKm);
  const surelyIn = limit * (1 - 1e-9);
  const surelyOut = limit * (1 + 1e-9);
  // Smallest squared chord per rank in scratch arrays the attributes own (no map, no allocation
  // per office); `touchedBits` marks the ranks written, to read them back in order and reset them.
  const { best, touchedBits, touched, distances } = attributes.nearScratch();
  const spans: number[] = [];
  const spanEnds = attributes.grid.spans(centre, radiusKm, spans);
  for (let s = 0; s < spanEnds; s += 2) {
    for (let at = spans[s]!; at < spans[s + 1]!; at++) {
      const dx = x[at]! - cx;
      const dy = y[at]! - cy;
      const dz = z[at]! - cz;
      const chord2 = dx * dx + dy * dy + dz * dz;
      if (chord2 > surelyIn && (chord2 > surelyOut || kmOfChord2(chord2) > radiusKm)) continue;
      const rank = officeRank[at]!;
      touchedBits[rank >>> 5]! |= 1 << (rank & 31);
      if (chord2 < best[rank]!) best[rank] = chord2;
    }
  }
  const ranks = takeAscending(touchedBits, touched);
  for (let i = 0; i < ranks.length; i++) {
    const rank = ranks[i]!;
    distances[i] = best[rank]!;
    best[rank] = Number.POSITIVE_INFINITY;
  }
  return { ranks, values: distances.subarray(0, ranks.length) };
}

/**
 * The ranks whose bit is set, ascending, written into `into`; the bits are cleared. One bit a
 * rank: 100,000 ranks are 3,125 words to read, quicker than sorting a few thousand touched
 * ranks (30,000 took 2 ms) or testing 100,000 distances.
 */
function takeAscending(bits: Int32Array, into: Int32Array): Int32Array {
  let n = 0;
  for (let word = 0; word < bits.length; word++) {
    let set = bits[word]!;
    if (set === 0) continue;
    bits[word] = 0;
    while (set !== 0) {
      const lowest = set & -set;
      into[n++] = word * 32 + (31 - Math.clz32(lowest));
      set ^= lowest;
    }
  }
  return into.subarray(0, n);
}

/**
 * The ranks among `ranks` whose average rating is at least `min` (brokers without reviews count
 * as 0), written into `into` (which may be `ranks` itself: the filter writes behind its reads).
 */
export function atLeast(ranks: Int32Array, averageRating: Float64Array, min: number, into: Int32Array): Int32Array {
  let n = 0;
  for (let i = 0; i < ranks.length; i++) if (averageRating[ranks[i]!]! >= min) into[n++] = ranks[i]!;
  return into.subarray(0, n);
}

/** Brokers whose verification mark equals `verified`. */
export function verifiedSet(attributes: BrokerAttributes, verified: boolean): RankSet {
  const ranks: number[] = [];
  attributes.verified.forEach((flag, rank) => {
    if ((flag === 1) === verified) ranks.push(rank);
  });
  return { ranks: Int32Array.from(ranks) };
}

/** The value a set holds for `rank` (binary search), or undefined. */
export function valueAt(set: RankSet, rank: number): number | undefined {
  let lo = 0;
  let hi = set.ranks.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = set.ranks[mid]!;
    if (at === rank) return set.values?.[mid];
    if (at < rank) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/**
 * Intersection of sets (ranks ascending): the smallest is walked, each other set is tested by
 * its membership map when it has one, else galloped through. With one set, its own ranks; with
 * more, the result is written into `into` (scratch space the caller owns, at least as long as
 * the smallest set): each step writes behind its reads, so it filters in place.
 */
export function intersectAll(sets: readonly RankSet[], into: Int32Array): Int32Array {
  const bySize = [...sets].sort((a, b) => a.ranks.length - b.ranks.length);
  let out = bySize[0]!.ranks;
  for (const set of bySize.slice(1)) out = set.member ? keepMembers(out, set.member, into) : intersectSorted(out, set.ranks, into);
  return out;
}

function keepMembers(ranks: Int32Array, member: Uint8Array, into: Int32Array): Int32Array {
  let n = 0;
  for (let i = 0; i < ranks.length; i++) if (member[ranks[i]!] === 1) into[n++] = ranks[i]!;
  return into.subarray(0, n);
}

function intersectSorted(small: Int32Array, large: Int32Array, into: Int32Array): Int32Array {
  const out = into;
  let n = 0;
  let j = 0;
  for (let i = 0; i < small.length && j < large.length; i++) {
    const value = small[i]!;
    if (large[j]! < value) {
      let step = 1;
      while (j + step < large.length && large[j + step]! < value) step *= 2;
      let lo = j + (step >> 1);
      let hi = Math.min(j + step, large.length - 1);
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (large[mid]! < value) lo = mid + 1;
        else hi = mid;
      }
      j = lo;
    }
    if (large[j] === value) out[n++] = value;
  }
  return out.subarray(0, n);
}
