// Generated from db/tables.ts by `bun run db:schemas`: do not edit, edit db/tables.ts and run it.
// Generated rather than written because TypeScript cannot type one function body for both
// drizzle dialects (their builders' types differ), and the stores, the replica and the tests rely
// on drizzle's exact types: so each dialect's tables are written out from the one declaration.
import { sql } from "drizzle-orm";
import { bigint, boolean, check, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import type { RatedOffer } from "../src/domain/rating/ratingEngine.ts";

/**
 * The same tables as db/schema.ts, for PostgreSQL (DATABASE_URL): the same table and column names
 * and the same TypeScript row types (test/unit/schema-dialects.test.ts compares them), so rows move
 * between the dialects unchanged. Times stay integer milliseconds (bigint read as a JS number: safe
 * up to 2^53 ms, the year 287,396); JSON lists are jsonb; the rating average is a double, as
 * SQLite's REAL is. What only SQLite has (FTS5, WITHOUT ROWID) has no twin: each instance searches
 * its own replica of the directory (src/storage/pg/directoryReplica.ts). Triggers (aggregates,
 * change journal, versions and their NOTIFY) are in the hand-written migration
 * db/migrations-pg/0001_triggers_and_announcements.sql.
 */

export const workspaces = pgTable("workspaces", {
  id: text("id").primaryKey(),
  name: text("name").notNull().unique(),
  createdAt: bigint("created_at", { mode: "number" }).notNull(),
});

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    name: text("name").notNull(),
    /** The first characters of the key, for recognising it in listings (never enough to use it). */
    displayPrefix: text("display_prefix").notNull(),
    /** SHA-256 of the whole key, hex. The key itself is never stored. */
    hash: text("hash").notNull(),
    scopes: jsonb("scopes").$type<string[]>().notNull(),
    rateLimitPerMinute: integer("rate_limit_per_minute").notNull(),
    /** Browser origins allowed to use the key; non-null makes it an embed key. */
    origins: jsonb("origins").$type<string[] | null>(),
    expiresAt: bigint("expires_at", { mode: "number" }),
    revokedAt: bigint("revoked_at", { mode: "number" }),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    lastUsedAt: bigint("last_used_at", { mode: "number" }),
    /**
     * The key that replaced this one in a roll: set once, so a key is rolled at most once (a second
     * roll is a 409).
     */
    replacedBy: text("replaced_by"),
  },
  (t) => [
    uniqueIndex("api_keys_hash").on(t.hash),
    index("api_keys_workspace").on(t.workspaceId),
  ],
);

export const brokers = pgTable(
  "brokers",
  {
    id: integer("id").primaryKey(),
    /**
     * The operator's own key for the broker (a CRM id), by which `import` finds it again; null for
     * brokers made without one.
     */
    externalId: text("external_id"),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    /**
     * Name folded (lower case, no accents) for alphabetical order that ignores case and accents.
     */
    sortName: text("sort_name").notNull(),
    description: text("description").notNull(),
    /** Primary location, denormalised for list responses. */
    province: text("province").notNull(),
    city: text("city").notNull(),
    phone: text("phone"),
    email: text("email"),
    website: text("website"),
    licenseNumber: text("license_number"),
    foundingYear: integer("founding_year"),
    /** Head-count band, one of TEAM_SIZES ("1-10" … "500+"). */
    teamSize: text("team_size").notNull().default("1-10"),
    /** Licence checked with the provincial regulator. */
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
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [
    uniqueIndex("brokers_slug").on(t.slug),
    index("brokers_published_sort").on(t.published, t.sortName, t.id),
    // Unique where given: both dialects let NULLs repeat in a unique index.
    uniqueIndex("brokers_external_id").on(t.externalId),
  ],
);

export const brokerLocations = pgTable(
  "broker_locations",
  {
    id: integer("id").primaryKey(),
    brokerId: integer("broker_id").notNull().references(() => brokers.id, { onDelete: "cascade" }),
    address: text("address").notNull(),
    city: text("city").notNull(),
    /** City folded for case- and accent-insensitive matching ("montreal" for Montréal). */
    cityKey: text("city_key").notNull(),
    province: text("province").notNull(),
    postalCode: text("postal_code").notNull(),
    phone: text("phone"),
    latitude: doublePrecision("latitude"),
    longitude: doublePrecision("longitude"),
    isPrimary: boolean("is_primary").notNull(),
  },
  (t) => [
    index("broker_locations_broker").on(t.brokerId),
  ],
);

/** One row per broker and insurance line, for filtering; the display list stays on `brokers`. */
export const brokerLines = pgTable(
  "broker_lines",
  {
    brokerId: integer("broker_id").notNull().references(() => brokers.id, { onDelete: "cascade" }),
    /** The line folded ("real estate"). */
    lineKey: text("line_key").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.lineKey, t.brokerId] }),
    index("broker_lines_broker").on(t.brokerId),
  ],
);

/**
 * In SQLite, reviews are stored clustered by broker: the table is keyed by (broker, published,
 * created, id) and, in the migration that made it so (0008), declared WITHOUT ROWID (drizzle cannot
 * say that; its SQL is edited by hand), so a broker's published reviews, newest first, are one
 * contiguous range: a page is one seek, not one lookup per review. `id` is no longer the rowid, so
 * whoever inserts a review gives its id (the seed numbers them); `reviews_id` keeps ids unique and
 * finds a review by id. `reviews_broker_rating` serves the star filter and the highest/lowest
 * orders without sorting a broker's reviews. PostgreSQL's rows are never paged there (each instance
 * reads its SQLite replica): keyed by id, indexed by broker. `reviews_created` (both dialects)
 * serves the operator's moderation queue, every review newest first (directory.reviewQueue): its
 * first page reads the index's end instead of sorting the table.
 */
export const reviews = pgTable(
  "reviews",
  {
    id: integer("id").primaryKey(),
    /**
     * The operator's own key for the review, by which `import` finds it again; null for reviews
     * made without one.
     */
    externalId: text("external_id"),
    brokerId: integer("broker_id").notNull().references(() => brokers.id, { onDelete: "cascade" }),
    authorName: text("author_name").notNull(),
    rating: integer("rating").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    published: boolean("published").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (t) => [
    index("reviews_broker").on(t.brokerId),
    uniqueIndex("reviews_external_id").on(t.externalId),
    index("reviews_created").on(t.createdAt, t.id),
    check("reviews_rating_range", sql`${t.rating} between 1 and 5`),
  ],
);

/**
 * Every change to the directory (issue 27): who made it, when, the fields before and after, and
 * why. Append-only: rows are only ever inserted (an import never rewrites one), and they name the
 * broker by id without a foreign key, so a broker's history outlives any change to it.
 */
export const directoryAudit = pgTable(
  "directory_audit",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    brokerId: integer("broker_id").notNull(),
    /** Set when the change is to one of the broker's reviews. */
    reviewId: integer("review_id"),
    /**
     * Who: "cli" (an import), "key:<workspace>:<key id>" (the write API) or "console:<workspace>"
     * (a console session).
     */
    actor: text("actor").notNull(),
    at: bigint("at", { mode: "number" }).notNull(),
    /** "created", "updated" or "unpublished". */
    action: text("action").notNull(),
    /** The fields that changed, as they were (null when created). */
    before: jsonb("before").$type<Record<string, unknown> | null>(),
    /** The same fields as they became. */
    after: jsonb("after").$type<Record<string, unknown> | null>(),
    /**
     * Why, as given ("import brokers crm.csv"; "import brokers crm.csv (--sync: not in the file)").
     */
    reason: text("reason"),
  },
  (t) => [
    index("directory_audit_broker").on(t.brokerId, t.id),
  ],
);

/**
 * Small key/value facts about the database. `directory_version` and `keys_version` are bumped by
 * triggers on every write to the directory tables and to the keys (in PostgreSQL also announced
 * with NOTIFY); read-path caches key on them, so they are invalidated by any writer, including
 * another process sharing the file.
 */
export const meta = pgTable("meta", {
  key: text("key").primaryKey(),
  value: bigint("value", { mode: "number" }).notNull(),
});

/**
 * What changed in the directory, broker by broker, in order, written by triggers (any process): the
 * search index (in PostgreSQL, each instance's directory replica) reads the changes since the last
 * one it applied, and updates ratings in place (`ratingsOnly`: a review moved a broker's average or
 * count) instead of rebuilding from every row. Only the latest 10,000 changes are kept; an index
 * further behind rebuilds.
 */
export const directoryChanges = pgTable("directory_changes", {
  seq: bigint("seq", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
  brokerId: integer("broker_id").notNull(),
  ratingsOnly: boolean("ratings_only").notNull(),
});

/**
 * The carrier catalogue (src/storage/stores/carriers.json, seeded with the directory): the only
 * carriers the quote engine prices. Slugs are stable ids; lines and provinces are small JSON
 * arrays, read whole (30 rows) into a cache keyed on `directory_version`.
 */
export const carriers = pgTable("carriers", {
  slug: text("slug").primaryKey(),
  name: text("name").notNull().unique(),
  /** Insurance lines it writes, as labels ("Auto", "Home"…). */
  lines: jsonb("lines").$type<string[]>().notNull(),
  /** Two-letter codes of the provinces and territories where it writes them. */
  provinces: jsonb("provinces").$type<string[]>().notNull(),
});

/** A quote request of a workspace and its priced offers. */
export const quotes = pgTable(
  "quotes",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    /** As the caller wrote it ("auto", "Auto"): echoed back unchanged. */
    insuranceType: text("insurance_type").notNull(),
    /** The line it resolved to: auto, home, condo, tenant, life, travel. */
    line: text("line").notNull(),
    province: text("province").notNull(),
    postalCode: text("postal_code").notNull(),
    details: jsonb("details").$type<Record<string, unknown>>().notNull(),
    source: text("source").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    expiresAt: bigint("expires_at", { mode: "number" }).notNull(),
    /**
     * Its priced offers, cheapest first: written once with the quote and always read with it (one
     * row, not one per offer).
     */
    offers: jsonb("offers").$type<RatedOffer[]>().notNull().default(sql`'[]'::jsonb`),
  },
  (t) => [
    index("quotes_workspace_created").on(t.workspaceId, t.createdAt),
    // The purge walks expired quotes oldest first without scanning the table.
    index("quotes_expires").on(t.expiresAt),
  ],
);

/** The workspace CRM: people who asked to be contacted. Personal data: never logged. */
export const leads = pgTable(
  "leads",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    name: text("name").notNull(),
    email: text("email").notNull(),
    /** E.164, +1XXXXXXXXXX. */
    phone: text("phone").notNull(),
    insuranceType: text("insurance_type").notNull(),
    notes: text("notes"),
    brokerSlug: text("broker_slug"),
    quoteId: text("quote_id").references(() => quotes.id),
    source: text("source").notNull(),
    status: text("status").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    /** SQLite lists newest first by (created_at, rowid); PostgreSQL has no rowid: this is it. */
    seq: bigint("seq", { mode: "number" }).notNull().generatedAlwaysAsIdentity(),
  },
  (t) => [
    index("leads_workspace_created").on(t.workspaceId, t.createdAt, t.seq),
    index("leads_quote").on(t.quoteId),
  ],
);

/**
 * A lead's status history, append-only: every change (and every note) is a new row, never an
 * UPDATE, so two people changing the same lead at once both stay on record. `leads.status` holds
 * the latest row's status for filtering.
 */
export const leadEvents = pgTable(
  "lead_events",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    leadId: text("lead_id").notNull().references(() => leads.id),
    status: text("status").notNull(),
    note: text("note"),
    /** Who made the change: "console" or the id of the API key (never the key). */
    actor: text("actor").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (t) => [
    index("lead_events_lead").on(t.leadId, t.id),
  ],
);

/**
 * One-time sign-in links of the workspace console (`console-link`). Only the SHA-256 of the token
 * is stored; a link is spent by setting `used_at`.
 */
export const consoleLinks = pgTable(
  "console_links",
  {
    tokenHash: text("token_hash").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    expiresAt: bigint("expires_at", { mode: "number" }).notNull(),
    usedAt: bigint("used_at", { mode: "number" }),
  },
  (t) => [
    index("console_links_expires").on(t.expiresAt),
  ],
);

/** Console sessions, keyed by the SHA-256 of the cookie's secret, so a stolen file opens none. */
export const consoleSessions = pgTable(
  "console_sessions",
  {
    idHash: text("id_hash").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    lastSeenAt: bigint("last_seen_at", { mode: "number" }).notNull(),
    /** The absolute end (created + 7 days); the idle end is last_seen_at + 12 hours. */
    expiresAt: bigint("expires_at", { mode: "number" }).notNull(),
    endedAt: bigint("ended_at", { mode: "number" }),
  },
  (t) => [
    index("console_sessions_workspace").on(t.workspaceId),
  ],
);

/**
 * The first answer to each `Idempotency-Key` of a workspace (issue 28; the manual's idempotency
 * page): written in the same transaction as what the request created, so a committed lead or quote
 * always has its record and a retry finds it. Only successes are kept; 24 hours, then purged.
 */
export const idempotencyRecords = pgTable(
  "idempotency_records",
  {
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    /** The client's Idempotency-Key, as sent (1 to 255 printable ASCII characters). */
    key: text("key").notNull(),
    /**
     * SHA-256 of the request: procedure, surface and its input in canonical JSON. Another body
     * under the same key is a conflict.
     */
    fingerprint: text("fingerprint").notNull(),
    /** The procedure's answer as JSON text, replayed as it is. */
    answer: text("answer").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.key] }),
    // The purge walks records past 24 hours oldest first.
    index("idempotency_records_created").on(t.createdAt),
  ],
);

/**
 * Requests per key per UTC day, counted in memory (src/storage/stores/usageCounter.ts) and added
 * here in batches: `refused` counts the requests the key's rate limit turned away.
 */
export const keyUsageDaily = pgTable(
  "key_usage_daily",
  {
    keyId: text("key_id").notNull().references(() => apiKeys.id),
    /** UTC day, YYYY-MM-DD. */
    day: text("day").notNull(),
    requests: integer("requests").notNull().default(0),
    refused: integer("refused").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.keyId, t.day] }),
  ],
);

/**
 * Where a workspace wants its events sent (issue 28). The signing secret is kept as it is (a
 * receiver verifies with it, so it cannot be a hash); a roll keeps the previous one signing too
 * until `previous_secret_expires_at`. An endpoint failing for the give-up window in a row, or
 * answering 410, is disabled, with the reason for the console.
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    url: text("url").notNull(),
    /** The event types it receives (lead.created, lead.status_changed, quote.created). */
    events: jsonb("events").$type<string[]>().notNull(),
    description: text("description"),
    /** whsec_ + base64 of 24 random bytes: shown once, at creation and at each roll. */
    secret: text("secret").notNull(),
    /** The secret before the last roll, still signing until previous_secret_expires_at. */
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: bigint("previous_secret_expires_at", { mode: "number" }),
    /** The first failed attempt of the current run of failures; null after a success. */
    failingSince: bigint("failing_since", { mode: "number" }),
    disabledAt: bigint("disabled_at", { mode: "number" }),
    /** Why it was disabled (410 Gone, failing for 24 h, or the workspace's own PATCH). */
    disabledReason: text("disabled_reason"),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [
    index("webhook_endpoints_workspace").on(t.workspaceId),
  ],
);

/**
 * The outbox: an event written in the same transaction as the lead or quote that caused it, only
 * when the workspace has an endpoint that wants it. `data` is the resource as the REST API answers
 * it; its id is the `webhook-id` of every attempt to send it.
 */
export const webhookEvents = pgTable("webhook_events", {
  id: text("id").primaryKey(),
  workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
  type: text("type").notNull(),
  data: jsonb("data").$type<Record<string, unknown>>().notNull(),
  createdAt: bigint("created_at", { mode: "number" }).notNull(),
  /**
   * SQLite: the endpoints that wanted the event when it was written. The lead's or quote's write
   * stores only this row; the deliverer turns it into one delivery per endpoint later, in batches
   * (WebhookStore.fanOut, its place kept in meta's webhook_fanout). Null where the deliveries were
   * written with the event (PostgreSQL, test events).
   */
  endpointIds: jsonb("endpoint_ids").$type<string[]>(),
});

/**
 * One event to one endpoint, and how sending it went. The deliverer claims due rows by moving
 * `next_attempt_at` past the attempt's lease (PostgreSQL: FOR UPDATE SKIP LOCKED, so each is sent
 * by one instance at a time); an instance that dies mid-attempt leaves the row due again when the
 * lease ends, so an event is sent at least once.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    eventId: text("event_id").notNull().references(() => webhookEvents.id),
    endpointId: text("endpoint_id").notNull().references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    workspaceId: text("workspace_id").notNull(),
    /** pending, delivered or failed (gave up after the retry window). */
    status: text("status").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: bigint("next_attempt_at", { mode: "number" }).notNull(),
    lastAttemptAt: bigint("last_attempt_at", { mode: "number" }),
    /** The last attempt's HTTP status; null when it got none (refused, timed out). */
    responseStatus: integer("response_status"),
    latencyMs: integer("latency_ms"),
    /** Why the last attempt failed, in our words (never a response body). */
    error: text("error"),
    /** The first 1 KiB of the last response body, for its own workspace only. */
    responseBody: text("response_body"),
    deliveredAt: bigint("delivered_at", { mode: "number" }),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (t) => [
    index("webhook_deliveries_due").on(t.status, t.nextAttemptAt),
    index("webhook_deliveries_endpoint").on(t.endpointId, t.id),
  ],
);
