// Generated from db/tables.ts by `bun run db:schemas`: do not edit, edit db/tables.ts and run it.
// Generated rather than written because TypeScript cannot type one function body for both
// drizzle dialects (their builders' types differ), and the stores, the replica and the tests rely
// on drizzle's exact types: so each dialect's tables are written out from the one declaration.
import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { RatedOffer } from "../src/domain/rating/ratingEngine.ts";

/**
 * The directory's tables. Times are integer milliseconds since the epoch (UTC), so that ISO strings
 * with milliseconds come back exactly. Rating aggregates on `brokers` are kept by triggers on
 * `reviews` (see the custom migration), never recomputed per request.
 */

export const workspaces = sqliteTable("workspaces", {
  id: text("id").primaryKey(),
  name: text("name").notNull().unique(),
  createdAt: integer("created_at").notNull(),
});

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    name: text("name").notNull(),
    /** The first characters of the key, for recognising it in listings (never enough to use it). */
    displayPrefix: text("display_prefix").notNull(),
    /** SHA-256 of the whole key, hex. The key itself is never stored. */
    hash: text("hash").notNull(),
    scopes: text("scopes", { mode: "json" }).$type<string[]>().notNull(),
    rateLimitPerMinute: integer("rate_limit_per_minute").notNull(),
    /** Browser origins allowed to use the key; non-null makes it an embed key. */
    origins: text("origins", { mode: "json" }).$type<string[] | null>(),
    expiresAt: integer("expires_at"),
    revokedAt: integer("revoked_at"),
    createdAt: integer("created_at").notNull(),
    lastUsedAt: integer("last_used_at"),
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

export const brokers = sqliteTable(
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
    isVerified: integer("is_verified", { mode: "boolean" }).notNull().default(false),
    insuranceLines: text("insurance_lines", { mode: "json" }).$type<string[]>().notNull(),
    specialties: text("specialties", { mode: "json" }).$type<string[]>().notNull(),
    languages: text("languages", { mode: "json" }).$type<string[]>().notNull(),
    published: integer("published", { mode: "boolean" }).notNull(),
    reviewCount: integer("review_count").notNull().default(0),
    averageRating: real("average_rating"),
    rating1: integer("rating_1").notNull().default(0),
    rating2: integer("rating_2").notNull().default(0),
    rating3: integer("rating_3").notNull().default(0),
    rating4: integer("rating_4").notNull().default(0),
    rating5: integer("rating_5").notNull().default(0),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("brokers_slug").on(t.slug),
    index("brokers_published_sort").on(t.published, t.sortName, t.id),
    // Unique where given: both dialects let NULLs repeat in a unique index.
    uniqueIndex("brokers_external_id").on(t.externalId),
  ],
);

export const brokerLocations = sqliteTable(
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
    latitude: real("latitude"),
    longitude: real("longitude"),
    isPrimary: integer("is_primary", { mode: "boolean" }).notNull(),
  },
  (t) => [
    index("broker_locations_broker").on(t.brokerId),
    // Searches by place run on SQLite (each instance's replica too); PostgreSQL reads offices by
    // broker.
    index("broker_locations_province_city").on(t.province, t.cityKey, t.brokerId),
    index("broker_locations_city").on(t.cityKey, t.brokerId),
  ],
);

/** One row per broker and insurance line, for filtering; the display list stays on `brokers`. */
export const brokerLines = sqliteTable(
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
export const reviews = sqliteTable(
  "reviews",
  {
    id: integer("id").notNull(),
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
    published: integer("published", { mode: "boolean" }).notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.brokerId, t.published, t.createdAt, t.id] }),
    uniqueIndex("reviews_id").on(t.id),
    index("reviews_broker_rating").on(t.brokerId, t.published, t.rating, t.createdAt),
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
export const directoryAudit = sqliteTable(
  "directory_audit",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    brokerId: integer("broker_id").notNull(),
    /** Set when the change is to one of the broker's reviews. */
    reviewId: integer("review_id"),
    /**
     * Who: "cli" (an import), "key:<workspace>:<key id>" (the write API) or "console:<workspace>"
     * (a console session).
     */
    actor: text("actor").notNull(),
    at: integer("at").notNull(),
    /** "created", "updated" or "unpublished". */
    action: text("action").notNull(),
    /** The fields that changed, as they were (null when created). */
    before: text("before", { mode: "json" }).$type<Record<string, unknown> | null>(),
    /** The same fields as they became. */
    after: text("after", { mode: "json" }).$type<Record<string, unknown> | null>(),
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
export const meta = sqliteTable("meta", {
  key: text("key").primaryKey(),
  value: integer("value").notNull(),
});

/**
 * What changed in the directory, broker by broker, in order, written by triggers (any process): the
 * search index (in PostgreSQL, each instance's directory replica) reads the changes since the last
 * one it applied, and updates ratings in place (`ratingsOnly`: a review moved a broker's average or
 * count) instead of rebuilding from every row. Only the latest 10,000 changes are kept; an index
 * further behind rebuilds.
 */
export const directoryChanges = sqliteTable("directory_changes", {
  seq: integer("seq").primaryKey({ autoIncrement: true }),
  brokerId: integer("broker_id").notNull(),
  ratingsOnly: integer("ratings_only", { mode: "boolean" }).notNull(),
});

/**
 * The carrier catalogue (src/storage/stores/carriers.json, seeded with the directory): the only
 * carriers the quote engine prices. Slugs are stable ids; lines and provinces are small JSON
 * arrays, read whole (30 rows) into a cache keyed on `directory_version`.
 */
export const carriers = sqliteTable("carriers", {
  slug: text("slug").primaryKey(),
  name: text("name").notNull().unique(),
  /** Insurance lines it writes, as labels ("Auto", "Home"…). */
  lines: text("lines", { mode: "json" }).$type<string[]>().notNull(),
  /** Two-letter codes of the provinces and territories where it writes them. */
  provinces: text("provinces", { mode: "json" }).$type<string[]>().notNull(),
});

/** A quote request of a workspace and its priced offers. */
export const quotes = sqliteTable(
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
    details: text("details", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    source: text("source").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    /**
     * Its priced offers, cheapest first: written once with the quote and always read with it (one
     * row, not one per offer).
     */
    offers: text("offers", { mode: "json" }).$type<RatedOffer[]>().notNull().default(sql`'[]'`),
  },
  (t) => [
    index("quotes_workspace_created").on(t.workspaceId, t.createdAt),
    // The purge walks expired quotes oldest first without scanning the table.
    index("quotes_expires").on(t.expiresAt),
  ],
);

/** The workspace CRM: people who asked to be contacted. Personal data: never logged. */
export const leads = sqliteTable(
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
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    // Listing is newest first by (created_at, rowid); SQLite indexes carry the rowid already.
    index("leads_workspace_created").on(t.workspaceId, t.createdAt),
    index("leads_quote").on(t.quoteId),
  ],
);

/**
 * A lead's status history, append-only: every change (and every note) is a new row, never an
 * UPDATE, so two people changing the same lead at once both stay on record. `leads.status` holds
 * the latest row's status for filtering.
 */
export const leadEvents = sqliteTable(
  "lead_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    leadId: text("lead_id").notNull().references(() => leads.id),
    status: text("status").notNull(),
    note: text("note"),
    /** Who made the change: "console" or the id of the API key (never the key). */
    actor: text("actor").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("lead_events_lead").on(t.leadId, t.id),
  ],
);

/**
 * One-time sign-in links of the workspace console (`console-link`). Only the SHA-256 of the token
 * is stored; a link is spent by setting `used_at`.
 */
export const consoleLinks = sqliteTable(
  "console_links",
  {
    tokenHash: text("token_hash").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
  },
  (t) => [
    index("console_links_expires").on(t.expiresAt),
  ],
);

/** Console sessions, keyed by the SHA-256 of the cookie's secret, so a stolen file opens none. */
export const consoleSessions = sqliteTable(
  "console_sessions",
  {
    idHash: text("id_hash").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    createdAt: integer("created_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
    /** The absolute end (created + 7 days); the idle end is last_seen_at + 12 hours. */
    expiresAt: integer("expires_at").notNull(),
    endedAt: integer("ended_at"),
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
export const idempotencyRecords = sqliteTable(
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
    createdAt: integer("created_at").notNull(),
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
export const keyUsageDaily = sqliteTable(
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
export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    url: text("url").notNull(),
    /** The event types it receives (lead.created, lead.status_changed, quote.created). */
    events: text("events", { mode: "json" }).$type<string[]>().notNull(),
    description: text("description"),
    /** whsec_ + base64 of 24 random bytes: shown once, at creation and at each roll. */
    secret: text("secret").notNull(),
    /** The secret before the last roll, still signing until previous_secret_expires_at. */
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: integer("previous_secret_expires_at"),
    /** The first failed attempt of the current run of failures; null after a success. */
    failingSince: integer("failing_since"),
    disabledAt: integer("disabled_at"),
    /** Why it was disabled (410 Gone, failing for 24 h, or the workspace's own PATCH). */
    disabledReason: text("disabled_reason"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
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
export const webhookEvents = sqliteTable("webhook_events", {
  id: text("id").primaryKey(),
  workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
  type: text("type").notNull(),
  data: text("data", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  createdAt: integer("created_at").notNull(),
  /**
   * SQLite: the endpoints that wanted the event when it was written. The lead's or quote's write
   * stores only this row; the deliverer turns it into one delivery per endpoint later, in batches
   * (WebhookStore.fanOut, its place kept in meta's webhook_fanout). Null where the deliveries were
   * written with the event (PostgreSQL, test events).
   */
  endpointIds: text("endpoint_ids", { mode: "json" }).$type<string[]>(),
});

/**
 * One event to one endpoint, and how sending it went. The deliverer claims due rows by moving
 * `next_attempt_at` past the attempt's lease (PostgreSQL: FOR UPDATE SKIP LOCKED, so each is sent
 * by one instance at a time); an instance that dies mid-attempt leaves the row due again when the
 * lease ends, so an event is sent at least once.
 */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    eventId: text("event_id").notNull().references(() => webhookEvents.id),
    endpointId: text("endpoint_id").notNull().references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    workspaceId: text("workspace_id").notNull(),
    /** pending, delivered or failed (gave up after the retry window). */
    status: text("status").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at").notNull(),
    lastAttemptAt: integer("last_attempt_at"),
    /** The last attempt's HTTP status; null when it got none (refused, timed out). */
    responseStatus: integer("response_status"),
    latencyMs: integer("latency_ms"),
    /** Why the last attempt failed, in our words (never a response body). */
    error: text("error"),
    /** The first 1 KiB of the last response body, for its own workspace only. */
    responseBody: text("response_body"),
    deliveredAt: integer("delivered_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("webhook_deliveries_due").on(t.status, t.nextAttemptAt),
    index("webhook_deliveries_endpoint").on(t.endpointId, t.id),
  ],
);
