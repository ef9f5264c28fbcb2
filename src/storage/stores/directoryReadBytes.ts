import type { BrokerDetail } from "../../schemas/broker.ts";
import type { Review } from "../../schemas/review.ts";
import { OBJECT_BYTES as OBJECT, SLOT_BYTES as SLOT } from "../../cache/estimateBytes.ts";

/** A member as estimateBytes counts it: its slot, its name (16 characters at most here) and a number's value. */
const MEMBER = SLOT + 16 + SLOT;
/** A string's header: estimateBytes counts half an object, then two bytes a character. */
const STRING = OBJECT / 2;
// A null (licenseNumber, an office phone) counts as a string: on the high side.
const text = (s: string | null) => STRING + 2 * (s?.length ?? 0);
/** A detail's members and nested objects besides its strings and lists: 26 members, rating (3) and its distribution (5), four arrays. */
const DETAIL_FIXED = OBJECT + 26 * MEMBER + (OBJECT + 3 * MEMBER) + (OBJECT + 5 * MEMBER) + 4 * OBJECT;
/** An office or a review: its array slot, the object and its members. */
const LOCATION_FIXED = SLOT + OBJECT + 9 * MEMBER;
const REVIEW_FIXED = SLOT + OBJECT + 7 * MEMBER;

/**
 * What a broker's detail costs in the directory-read cache, at least as much as estimateBytes
 * would say (test/unit/directory-read-bytes.test.ts), without walking every object's entries:
 * on a detail read that misses the caches (traffic spread over 100,000 brokers) the general
 * walk cost a sixteenth of the request (CPU profile).
 */
export function brokerDetailBytes(detail: BrokerDetail): number {
  let bytes = DETAIL_FIXED;
  for (const s of [detail.id, detail.name, detail.slug, detail.description, detail.province, detail.city, detail.email, detail.phone, detail.website, detail.teamSize, detail.licenseNumber, detail.createdAt, detail.updatedAt]) {
    bytes += text(s);
  }
  for (const list of [detail.insuranceLines, detail.specialties, detail.languages]) for (const s of list) bytes += SLOT + text(s);
  for (const l of detail.locations) bytes += LOCATION_FIXED + text(l.id) + text(l.address) + text(l.city) + text(l.province) + text(l.postalCode) + text(l.phone);
  return bytes;
}

/** What a page of reviews costs in the directory-read cache, at least as much as estimateBytes would say. */
export function reviewPageBytes(reviews: readonly Review[]): number {
  let bytes = OBJECT;
  for (const r of reviews) bytes += REVIEW_FIXED + text(r.id) + text(r.brokerId) + text(r.title) + text(r.content) + text(r.authorName) + text(r.createdAt);
  return bytes;
}
