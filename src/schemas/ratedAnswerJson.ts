import type { BrokerDetail } from "./broker.ts";

/** Where the distribution's text goes: a key only we write, followed by a value no distribution has. */
const STAND_IN = '"distribution":0}';

/**
 * `JSON.stringify(answer)`, byte for byte, for an answer holding a broker's rating (a detail, the
 * widget's profile), made on the engine's fast path.
 *
 * The rating's distribution is keyed "1" to "5" (the contract's shape). Such keys are array
 * indices to JavaScriptCore, and its fast stringifier gives up on the whole value when it meets
 * an object with indexed properties: the general path then serializes everything, at about 2.5×
 * the cost (a 1 KB detail: 4.2 µs against 1.7 µs this way, measured in process; the manual's
 * performance page). So the answer is serialized with the distribution stood in for by a 0, and
 * its five counts are written in where the stand-in is. The stand-in is unambiguous: inside a
 * JSON string every `"` is escaped, so `"distribution":` can only be the key itself.
 *
 * @example
 * ratedAnswerJson(detail) === JSON.stringify(detail) // true, only faster
 */
export function ratedAnswerJson(answer: Pick<BrokerDetail, "rating">): string {
  const rating = answer.rating;
  const counts = rating.distribution;
  const text = JSON.stringify({ ...answer, rating: { ...rating, distribution: 0 } });
  const at = text.indexOf(STAND_IN);
  // Not where it should be (a rating with other members after the distribution): the plain way.
  if (at < 0) return JSON.stringify(answer);
  const written = `"distribution":{"1":${counts["1"]},"2":${counts["2"]},"3":${counts["3"]},"4":${counts["4"]},"5":${counts["5"]}}}`;
  return text.slice(0, at) + written + text.slice(at + STAND_IN.length);
}
