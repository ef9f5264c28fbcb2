/**
 * The states of the directory's entries and why a review is hidden (issue 27): plain lists,
 * without zod, so the console's bundle can show them as the write API's schemas take them.
 */
export const BROKER_STATES = ["published", "unpublished"] as const;
export type BrokerState = (typeof BROKER_STATES)[number];

export const REVIEW_STATES = ["published", "hidden"] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

/** Why an operator hides a review (Trustpilot's kinds); "other" needs a note. */
export const HIDE_REASONS = ["spam", "abusive", "not a customer", "other"] as const;
export type HideReason = (typeof HIDE_REASONS)[number];
