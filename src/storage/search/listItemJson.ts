import type { BrokerListItem } from "../../schemas/broker.ts";

/** The first of a list item's fields that a review changes: every field from it on is a number or a boolean. */
const RATINGS_KEY = '"averageRating":';

/**
 * A list item's JSON as JSON.stringify writes it, cut in two: the head, up to the value of
 * averageRating, which only an edit of the broker changes (a new load of the index renders it
 * again); and the tail, the ratings and the mark, which reviews change in place and which are
 * therefore written from the index's arrays at each answer. head + tail is JSON.stringify(item),
 * byte for byte (test/unit/list-item-json.test.ts holds the two equal).
 *
 * The head is cut at the last `"averageRating":` of the text: no text field comes after it, and
 * inside a text field a quote is always escaped, so a name cannot fake the key.
 *
 * @example
 * listItemHead(item); // '{"id":"7","name":"Acme",…,"city":"Toronto","averageRating":'
 * listItemTail(4.25, 12, true); // '4.25,"reviewCount":12,"isVerified":true}'
 */
export function listItemHead(item: BrokerListItem): string {
  const text = JSON.stringify(item);
  return text.slice(0, text.lastIndexOf(RATINGS_KEY) + RATINGS_KEY.length);
}

/** The rest of a list item's JSON after listItemHead, from its ratings and mark (finite numbers: JSON writes them as String does). */
export function listItemTail(averageRating: number, reviewCount: number, isVerified: boolean): string {
  return `${averageRating},"reviewCount":${reviewCount},"isVerified":${isVerified}}`;
}
