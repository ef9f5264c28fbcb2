/** The words of leads, free of any library so the console bundle shares them with the server. */

/** A lead's life in the CRM: new when created, then contacted → quoted → won or lost. */
export const LEAD_STATUSES = ["new", "contacted", "quoted", "won", "lost"] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

/** Which door a lead came through: rest (also tRPC), embed (the widget) or mcp. */
export const LEAD_SOURCES = ["rest", "embed", "mcp"] as const;

export const MAX_NOTES_LENGTH = 2_000;
