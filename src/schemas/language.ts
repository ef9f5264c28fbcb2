/**
 * The languages the server words its answers in: English, and French on request
 * (Accept-Language). Declared here, below the router, so a procedure's context, the error
 * vocabulary and the HTTP adapters name the same type.
 */
export const LANGUAGES = ["en", "fr"] as const;
export type Language = (typeof LANGUAGES)[number];
