import { sql } from "drizzle-orm";
import { bigint, boolean, check, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import type { RatedOffer } from "../src/domain/rating/ratingEngine.ts";

/**
 * The same tables as db/schema.ts, for PostgreSQL (DATABASE_URL): the same table and column
 * names and the same TypeScript row types (test/unit/schema-dialects.test.ts compares them), so
 * rows move between the dialects unchanged. Times stay integer milliseconds (bigint read as a
 * JS number: safe up to 2^53 ms, the year 287,396); JSON lists are jsonb; the rating average is
 * a double, as SQLite's REAL is. What only SQLite has (FTS5, WITHOUT ROWID) has no twin: each
 * instance searches its own replica of the directory (src/storage/pg/directoryReplica.ts).
 * Triggers (aggregates, change journal, versions and their NOTIFY) are in the hand-written
 * migration db/migrations-pg/0001_triggers_and_announcements.sql.
 */

const millis = (name: string) => bigint(name, { mode: "number" });

export const workspaces = pgTable("workspaces", {
  id: text("id").primaryKey(),
  name: text("name").notNull().unique(),
  createdAt: millis("created_at").notNull(),
});

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    name: text("name").notNull(),
    displayPrefix: text("display_prefix").notNull(),
    hash: text("hash").notNull(),
    scopes: jsonb("scopes").$type<string[]>().notNull(),
    rateLimitPerMinute: integer("rate_limit_per_minute").notNull(),
    origins: jsonb("origins").$type<string[] | null>(),
    expiresAt: millis("expires_at"),
    revokedAt: millis("revoked_at"),
    createdAt: millis("created_at").notNull(),
    lastUsedAt: millis("last_used_at"),
    /** The key that replaced this one in a roll: set once, so a key is rolled at most once (a second roll is a 409). */
    replacedBy: text("replaced_by"),
  },
  (t) => [uniqueIndex("api_keys_hash").on(t.hash), index("api_keys_workspace").on(t.workspaceId)],
);

export const brokers = pgTable(
  "brokers",
  {
    id: integer("id").primaryKey(),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    sortName: text("sort_name").notNull(),
    description: text("description").notNull(),
    province: text("province").notNull(),
    city: text("city").notNull(),
    phone: text("phone"),
    email: text("email"),
    website: text("website"),
    licenseNumber: text("license_number"),
    foundingYear: integer("founding_year"),
    teamSize: text("team_size").notNull().default("1-10"),
    isVerified: boolean("is_verified").notNull().default(false),
    insuranceLines: jsonb("insurance_lines").$type<string[]>().notNull(),
    specialties: jsonb("specialties").$type<string[]>().notNull(),
    languages: jsonb("languages").$type<string[]>().notNull(),
    published: boolean("published").notNull(),
    reviewCount: integer("review_count").notNull().default(0),
    averageRating: doublePrecision("average_rating"),
    rating1: integer("rating_1").notNull().default(0),
    rating2: integer("rating_2").notNull().default(0),
    rating3: integer("rating_3").notNull().default(0),
    rating4: integer("rating_4").notNull().default(0),
    rating5: integer("rating_5").notNull().default(0),
    createdAt: millis("created_at").notNull(),
    updatedAt: millis("updated_at").notNull(),
  },
  (t) => [uniqueIndex("brokers_slug").on(t.slug), index("brokers_published_sort").on(t.published, t.sortName, t.id)],
);

export const brokerLocations = pgTable(
  "broker_locations",
  {
    id: integer("id").primaryKey(),
    brokerId: integer("broker_id").notNull().references(() => brokers.id, { onDelete: "cascade" }),
    address: text("address").notNull(),
    city: text("city").notNull(),
    cityKey: text("city_key").notNull(),
    province: text("province").notNull(),
    postalCode: text("postal_code").notNull(),
    phone: text("phone"),
    latitude: doublePrecision("latitude"),
    longitude: doublePrecision("longitude"),
    isPrimary: boolean("is_primary").notNull(),
  },
  (t) => [index("broker_locations_broker").on(t.brokerId)],
);

export const brokerLines = pgTable(
  "broker_lines",
  {
    brokerId: integer("broker_id").notNull().references(() => brokers.id, { onDelete: "cascade" }),
    lineKey: text("line_key").notNull(),
  },
  (t) => [primaryKey({ columns: [t.lineKey, t.brokerId] }), index("broker_lines_broker").on(t.brokerId)],
);

export const reviews = pgTable(
  "reviews",
  {
    id: integer("id").primaryKey(),
    brokerId: integer("broker_id").notNull().references(() => brokers.id, { onDelete: "cascade" }),
    authorName: text("author_name").notNull(),
    rating: integer("rating").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    published: boolean("published").notNull(),
    createdAt: millis("created_at").notNull(),
  },
  (t) => [index("reviews_broker").on(t.brokerId), check("reviews_rating_range", sql`${t.rating} between 1 and 5`)],
);

/** directory_version and keys_version: bumped (and announced with NOTIFY) by the triggers. */
export const meta = pgTable("meta", {
  key: text("key").primaryKey(),
  value: millis("value").notNull(),
});

/** Which brokers changed, in order: what each instance's directory replica re-reads. */
export const directoryChanges = pgTable("directory_changes", {
  seq: bigint("seq", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
  brokerId: integer("broker_id").notNull(),
  ratingsOnly: boolean("ratings_only").notNull(),
});

export const carriers = pgTable("carriers", {
  slug: text("slug").primaryKey(),
  name: text("name").notNull().unique(),
  lines: jsonb("lines").$type<string[]>().notNull(),
  provinces: jsonb("provinces").$type<string[]>().notNull(),
});

export const quotes = pgTable(
  "quotes",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    insuranceType: text("insurance_type").notNull(),
    line: text("line").notNull(),
    province: text("province").notNull(),
    postalCode: text("postal_code").notNull(),
    details: jsonb("details").$type<Record<string, unknown>>().notNull(),
    source: text("source").notNull(),
    createdAt: millis("created_at").notNull(),
    expiresAt: millis("expires_at").notNull(),
    /** Its priced offers, cheapest first: written once with the quote and always read with it (one row, not one per offer). */
    offers: jsonb("offers").$type<RatedOffer[]>().notNull().default(sql`'[]'::jsonb`),
  },
  (t) => [index("quotes_workspace_created").on(t.workspaceId, t.createdAt), index("quotes_expires").on(t.expiresAt)],
);

export const leads = pgTable(
  "leads",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone: text("phone").notNull(),
    insuranceType: text("insurance_type").notNull(),
    notes: text("notes"),
    brokerSlug: text("broker_slug"),
    quoteId: text("quote_id").references(() => quotes.id),
    source: text("source").notNull(),
    status: text("status").notNull(),
    createdAt: millis("created_at").notNull(),
    /** SQLite lists newest first by (created_at, rowid); PostgreSQL has no rowid: this is it. */
    seq: bigint("seq", { mode: "number" }).notNull().generatedAlwaysAsIdentity(),
  },
  (t) => [index("leads_workspace_created").on(t.workspaceId, t.createdAt, t.seq), index("leads_quote").on(t.quoteId)],
);

export const leadEvents = pgTable(
  "lead_events",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    leadId: text("lead_id").notNull().references(() => leads.id),
    status: text("status").notNull(),
    note: text("note"),
    actor: text("actor").notNull(),
    createdAt: millis("created_at").notNull(),
  },
  (t) => [index("lead_events_lead").on(t.leadId, t.id)],
);

export const consoleLinks = pgTable(
  "console_links",
  {
    tokenHash: text("token_hash").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    createdAt: millis("created_at").notNull(),
    expiresAt: millis("expires_at").notNull(),
    usedAt: millis("used_at"),
  },
  (t) => [index("console_links_expires").on(t.expiresAt)],
);

export const consoleSessions = pgTable(
  "console_sessions",
  {
    idHash: text("id_hash").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    createdAt: millis("created_at").notNull(),
    lastSeenAt: millis("last_seen_at").notNull(),
    expiresAt: millis("expires_at").notNull(),
    endedAt: millis("ended_at"),
  },
  (t) => [index("console_sessions_workspace").on(t.workspaceId)],
);

export const keyUsageDaily = pgTable(
  "key_usage_daily",
  {
    keyId: text("key_id").notNull().references(() => apiKeys.id),
    day: text("day").notNull(),
    requests: integer("requests").notNull().default(0),
    refused: integer("refused").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.day] })],
);
