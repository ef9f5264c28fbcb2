import { bigint, bool, check, type Dialect, index, int, json, millis, primaryKey, real, sql, table, text, uniqueIndex } from "./tableSpec.ts";

/**
 * The directory's tables, declared once for SQLite and PostgreSQL (the words: db/tableSpec.ts).
 * `bun run db:schemas` writes drizzle's tables for each from this: db/schema.ts and
 * db/schema.pg.ts, never edited by hand. What one dialect alone has is marked `only` here.
 */

/** The head of each generated file, after the note that it is generated. */
export const fileDocs: { readonly [D in Dialect]: string } = {
  sqlite: `The directory's tables. Times are integer milliseconds since the epoch (UTC), so that
    ISO strings with milliseconds come back exactly. Rating aggregates on \`brokers\` are kept by
    triggers on \`reviews\` (see the custom migration), never recomputed per request.`,
  pg: `The same tables as db/schema.ts, for PostgreSQL (DATABASE_URL): the same table and column
    names and the same TypeScript row types (test/unit/schema-dialects.test.ts compares them), so
    rows move between the dialects unchanged. Times stay integer milliseconds (bigint read as a
    JS number: safe up to 2^53 ms, the year 287,396); JSON lists are jsonb; the rating average is
    a double, as SQLite's REAL is. What only SQLite has (FTS5, WITHOUT ROWID) has no twin: each
    instance searches its own replica of the directory (src/storage/pg/directoryReplica.ts).
    Triggers (aggregates, change journal, versions and their NOTIFY) are in the hand-written
    migration db/migrations-pg/0001_triggers_and_announcements.sql.`,
};

/** The types json() columns name, by name: where the generated files import them from (relative to db/). */
export const typeImports: Readonly<Record<string, string>> = {
  RatedOffer: "../src/domain/rating/ratingEngine.ts",
};

export const tables = {
  workspaces: table("workspaces", {
    columns: {
      id: text().primaryKey(),
      name: text().notNull().unique(),
      createdAt: millis().notNull(),
    },
  }),

  apiKeys: table("api_keys", {
    columns: {
      id: text().primaryKey(),
      workspaceId: text().notNull().references("workspaces.id"),
      name: text().notNull(),
      displayPrefix: text()
        .notNull()
        .doc("The first characters of the key, for recognising it in listings (never enough to use it)."),
      hash: text().notNull().doc("SHA-256 of the whole key, hex. The key itself is never stored."),
      scopes: json("string[]").notNull(),
      rateLimitPerMinute: int().notNull(),
      origins: json("string[] | null").doc("Browser origins allowed to use the key; non-null makes it an embed key."),
      expiresAt: millis(),
      revokedAt: millis(),
      createdAt: millis().notNull(),
      lastUsedAt: millis(),
      replacedBy: text().doc(
        "The key that replaced this one in a roll: set once, so a key is rolled at most once (a second roll is a 409).",
      ),
    },
    extras: (t) => [uniqueIndex("api_keys_hash").on(t.hash), index("api_keys_workspace").on(t.workspaceId)],
  }),

  brokers: table("brokers", {
    columns: {
      id: int().primaryKey(),
      externalId: text().doc(
        "The operator's own key for the broker (a CRM id), by which `import` finds it again; null for brokers made without one.",
      ),
      slug: text().notNull(),
      name: text().notNull(),
      sortName: text()
        .notNull()
        .doc("Name folded (lower case, no accents) for alphabetical order that ignores case and accents."),
      description: text().notNull(),
      province: text().notNull().doc("Primary location, denormalised for list responses."),
      city: text().notNull(),
      phone: text(),
      email: text(),
      website: text(),
      licenseNumber: text(),
      foundingYear: int(),
      teamSize: text().notNull().default("1-10").doc(`Head-count band, one of TEAM_SIZES ("1-10" … "500+").`),
      isVerified: bool().notNull().default(false).doc("Licence checked with the provincial regulator."),
      insuranceLines: json("string[]").notNull(),
      specialties: json("string[]").notNull(),
      languages: json("string[]").notNull(),
      published: bool().notNull(),
      reviewCount: int().notNull().default(0),
      averageRating: real(),
      rating1: int().notNull().default(0),
      rating2: int().notNull().default(0),
      rating3: int().notNull().default(0),
      rating4: int().notNull().default(0),
      rating5: int().notNull().default(0),
      createdAt: millis().notNull(),
      updatedAt: millis().notNull(),
    },
    extras: (t) => [
      uniqueIndex("brokers_slug").on(t.slug),
      index("brokers_published_sort").on(t.published, t.sortName, t.id),
      uniqueIndex("brokers_external_id").on(t.externalId).doc("Unique where given: both dialects let NULLs repeat in a unique index."),
    ],
  }),

  brokerLocations: table("broker_locations", {
    columns: {
      id: int().primaryKey(),
      brokerId: int().notNull().references("brokers.id", { onDelete: "cascade" }),
      address: text().notNull(),
      city: text().notNull(),
      cityKey: text().notNull().doc(`City folded for case- and accent-insensitive matching ("montreal" for Montréal).`),
      province: text().notNull(),
      postalCode: text().notNull(),
      phone: text(),
      latitude: real(),
      longitude: real(),
      isPrimary: bool().notNull(),
    },
    extras: (t) => [
      index("broker_locations_broker").on(t.brokerId),
      index("broker_locations_province_city")
        .on(t.province, t.cityKey, t.brokerId)
        .only("sqlite")
        .doc("Searches by place run on SQLite (each instance's replica too); PostgreSQL reads offices by broker."),
      index("broker_locations_city").on(t.cityKey, t.brokerId).only("sqlite"),
    ],
  }),

  brokerLines: table("broker_lines", {
    doc: "One row per broker and insurance line, for filtering; the display list stays on `brokers`.",
    columns: {
      brokerId: int().notNull().references("brokers.id", { onDelete: "cascade" }),
      lineKey: text().notNull().doc(`The line folded ("real estate").`),
    },
    extras: (t) => [primaryKey(t.lineKey, t.brokerId), index("broker_lines_broker").on(t.brokerId)],
  }),

  reviews: table("reviews", {
    doc: `In SQLite, reviews are stored clustered by broker: the table is keyed by (broker, published,
      created, id) and, in the migration that made it so (0008), declared WITHOUT ROWID (drizzle
      cannot say that; its SQL is edited by hand), so a broker's published reviews, newest first, are
      one contiguous range: a page is one seek, not one lookup per review. \`id\` is no longer the
      rowid, so whoever inserts a review gives its id (the seed numbers them); \`reviews_id\` keeps ids
      unique and finds a review by id. \`reviews_broker_rating\` serves the star filter and the
      highest/lowest orders without sorting a broker's reviews. PostgreSQL's rows are never paged
      there (each instance reads its SQLite replica): keyed by id, indexed by broker.
      \`reviews_created\` (both dialects) serves the operator's moderation queue, every review newest
      first (directory.reviewQueue): its first page reads the index's end instead of sorting the table.`,
    columns: {
      id: int().notNull().primaryKey({ only: "pg" }),
      externalId: text().doc("The operator's own key for the review, by which `import` finds it again; null for reviews made without one."),
      brokerId: int().notNull().references("brokers.id", { onDelete: "cascade" }),
      authorName: text().notNull(),
      rating: int().notNull(),
      title: text().notNull(),
      body: text().notNull(),
      published: bool().notNull(),
      createdAt: millis().notNull(),
    },
    extras: (t) => [
      primaryKey(t.brokerId, t.published, t.createdAt, t.id).only("sqlite"),
      uniqueIndex("reviews_id").on(t.id).only("sqlite"),
      index("reviews_broker_rating").on(t.brokerId, t.published, t.rating, t.createdAt).only("sqlite"),
      index("reviews_broker").on(t.brokerId).only("pg"),
      uniqueIndex("reviews_external_id").on(t.externalId),
      index("reviews_created").on(t.createdAt, t.id),
      check("reviews_rating_range", sql`${t.rating} between 1 and 5`),
    ],
  }),

  directoryAudit: table("directory_audit", {
    doc: `Every change to the directory (issue 27): who made it, when, the fields before and after, and
      why. Append-only: rows are only ever inserted (an import never rewrites one), and they name
      the broker by id without a foreign key, so a broker's history outlives any change to it.`,
    columns: {
      id: int().primaryKey().identity(),
      brokerId: int().notNull(),
      reviewId: int().doc("Set when the change is to one of the broker's reviews."),
      actor: text()
        .notNull()
        .doc(`Who: "cli" (an import), "key:<workspace>:<key id>" (the write API) or "console:<workspace>" (a console session).`),
      at: millis().notNull(),
      action: text().notNull().doc(`"created", "updated" or "unpublished".`),
      before: json("Record<string, unknown> | null").doc("The fields that changed, as they were (null when created)."),
      after: json("Record<string, unknown> | null").doc("The same fields as they became."),
      reason: text().doc(`Why, as given ("import brokers crm.csv"; "import brokers crm.csv (--sync: not in the file)").`),
    },
    extras: (t) => [index("directory_audit_broker").on(t.brokerId, t.id)],
  }),

  meta: table("meta", {
    doc: `Small key/value facts about the database. \`directory_version\` and \`keys_version\` are bumped
      by triggers on every write to the directory tables and to the keys (in PostgreSQL also
      announced with NOTIFY); read-path caches key on them, so they are invalidated by any writer,
      including another process sharing the file.`,
    columns: {
      key: text().primaryKey(),
      value: bigint().notNull(),
    },
  }),

  directoryChanges: table("directory_changes", {
    doc: `What changed in the directory, broker by broker, in order, written by triggers (any process):
      the search index (in PostgreSQL, each instance's directory replica) reads the changes since the
      last one it applied, and updates ratings in place (\`ratingsOnly\`: a review moved a broker's
      average or count) instead of rebuilding from every row. Only the latest 10,000 changes are
      kept; an index further behind rebuilds.`,
    columns: {
      seq: bigint().primaryKey().identity(),
      brokerId: int().notNull(),
      ratingsOnly: bool().notNull(),
    },
  }),

  carriers: table("carriers", {
    doc: `The carrier catalogue (src/storage/stores/carriers.json, seeded with the directory): the only
      carriers the quote engine prices. Slugs are stable ids; lines and provinces are small JSON
      arrays, read whole (30 rows) into a cache keyed on \`directory_version\`.`,
    columns: {
      slug: text().primaryKey(),
      name: text().notNull().unique(),
      lines: json("string[]").notNull().doc(`Insurance lines it writes, as labels ("Auto", "Home"…).`),
      provinces: json("string[]").notNull().doc("Two-letter codes of the provinces and territories where it writes them."),
    },
  }),

  quotes: table("quotes", {
    doc: "A quote request of a workspace and its priced offers.",
    columns: {
      id: text().primaryKey(),
      workspaceId: text().notNull().references("workspaces.id"),
      insuranceType: text().notNull().doc(`As the caller wrote it ("auto", "Auto"): echoed back unchanged.`),
      line: text().notNull().doc("The line it resolved to: auto, home, condo, tenant, life, travel."),
      province: text().notNull(),
      postalCode: text().notNull(),
      details: json("Record<string, unknown>").notNull(),
      source: text().notNull(),
      createdAt: millis().notNull(),
      expiresAt: millis().notNull(),
      offers: json("RatedOffer[]")
        .notNull()
        .default({ sqlite: sql`'[]'`, pg: sql`'[]'::jsonb` })
        .doc(
          "Its priced offers, cheapest first: written once with the quote and always read with it (one row, not one per offer).",
        ),
    },
    extras: (t) => [
      index("quotes_workspace_created").on(t.workspaceId, t.createdAt),
      index("quotes_expires").on(t.expiresAt).doc("The purge walks expired quotes oldest first without scanning the table."),
    ],
  }),

  leads: table("leads", {
    doc: "The workspace CRM: people who asked to be contacted. Personal data: never logged.",
    columns: {
      id: text().primaryKey(),
      workspaceId: text().notNull().references("workspaces.id"),
      name: text().notNull(),
      email: text().notNull(),
      phone: text().notNull().doc("E.164, +1XXXXXXXXXX."),
      insuranceType: text().notNull(),
      notes: text(),
      brokerSlug: text(),
      quoteId: text().references("quotes.id"),
      source: text().notNull(),
      status: text().notNull(),
      createdAt: millis().notNull(),
      seq: bigint()
        .notNull()
        .identity()
        .only("pg")
        .doc("SQLite lists newest first by (created_at, rowid); PostgreSQL has no rowid: this is it."),
    },
    extras: (t) => [
      index("leads_workspace_created")
        .on(t.workspaceId, t.createdAt)
        .only("sqlite")
        .doc("Listing is newest first by (created_at, rowid); SQLite indexes carry the rowid already."),
      index("leads_workspace_created").on(t.workspaceId, t.createdAt, t.seq).only("pg"),
      index("leads_quote").on(t.quoteId),
    ],
  }),

  leadEvents: table("lead_events", {
    doc: `A lead's status history, append-only: every change (and every note) is a new row, never an
      UPDATE, so two people changing the same lead at once both stay on record. \`leads.status\`
      holds the latest row's status for filtering.`,
    columns: {
      id: int().primaryKey().identity(),
      leadId: text().notNull().references("leads.id"),
      status: text().notNull(),
      note: text(),
      actor: text().notNull().doc(`Who made the change: "console" or the id of the API key (never the key).`),
      createdAt: millis().notNull(),
    },
    extras: (t) => [index("lead_events_lead").on(t.leadId, t.id)],
  }),

  consoleLinks: table("console_links", {
    doc: `One-time sign-in links of the workspace console (\`console-link\`). Only the SHA-256 of the
      token is stored; a link is spent by setting \`used_at\`.`,
    columns: {
      tokenHash: text().primaryKey(),
      workspaceId: text().notNull().references("workspaces.id"),
      createdAt: millis().notNull(),
      expiresAt: millis().notNull(),
      usedAt: millis(),
    },
    extras: (t) => [index("console_links_expires").on(t.expiresAt)],
  }),

  consoleSessions: table("console_sessions", {
    doc: "Console sessions, keyed by the SHA-256 of the cookie's secret, so a stolen file opens none.",
    columns: {
      idHash: text().primaryKey(),
      workspaceId: text().notNull().references("workspaces.id"),
      createdAt: millis().notNull(),
      lastSeenAt: millis().notNull(),
      expiresAt: millis().notNull().doc("The absolute end (created + 7 days); the idle end is last_seen_at + 12 hours."),
      endedAt: millis(),
    },
    extras: (t) => [index("console_sessions_workspace").on(t.workspaceId)],
  }),

  idempotencyRecords: table("idempotency_records", {
    doc: `The first answer to each \`Idempotency-Key\` of a workspace (issue 28; the manual's idempotency
      page): written in the same transaction as what the request created, so a committed lead or quote
      always has its record and a retry finds it. Only successes are kept; 24 hours, then purged.`,
    columns: {
      workspaceId: text().notNull().references("workspaces.id"),
      key: text().notNull().doc("The client's Idempotency-Key, as sent (1 to 255 printable ASCII characters)."),
      fingerprint: text()
        .notNull()
        .doc("SHA-256 of the request: procedure, surface and its input in canonical JSON. Another body under the same key is a conflict."),
      answer: text().notNull().doc("The procedure's answer as JSON text, replayed as it is."),
      createdAt: millis().notNull(),
    },
    extras: (t) => [
      primaryKey(t.workspaceId, t.key),
      index("idempotency_records_created").on(t.createdAt).doc("The purge walks records past 24 hours oldest first."),
    ],
  }),

  keyUsageDaily: table("key_usage_daily", {
    doc: `Requests per key per UTC day, counted in memory (src/storage/stores/usageCounter.ts) and added
      here in batches: \`refused\` counts the requests the key's rate limit turned away.`,
    columns: {
      keyId: text().notNull().references("apiKeys.id"),
      day: text().notNull().doc("UTC day, YYYY-MM-DD."),
      requests: int().notNull().default(0),
      refused: int().notNull().default(0),
    },
    extras: (t) => [primaryKey(t.keyId, t.day)],
  }),

  // Issue 28 (webhooks): endpoints, the outbox of events and their deliveries, one block.
  webhookEndpoints: table("webhook_endpoints", {
    doc: `Where a workspace wants its events sent (issue 28). The signing secret is kept as it is (a
      receiver verifies with it, so it cannot be a hash); a roll keeps the previous one signing too
      until \`previous_secret_expires_at\`. An endpoint failing for the give-up window in a row, or
      answering 410, is disabled, with the reason for the console.`,
    columns: {
      id: text().primaryKey(),
      workspaceId: text().notNull().references("workspaces.id"),
      url: text().notNull(),
      events: json("string[]").notNull().doc("The event types it receives (lead.created, lead.status_changed, quote.created)."),
      description: text(),
      secret: text().notNull().doc("whsec_ + base64 of 24 random bytes: shown once, at creation and at each roll."),
      previousSecret: text().doc("The secret before the last roll, still signing until previous_secret_expires_at."),
      previousSecretExpiresAt: millis(),
      failingSince: millis().doc("The first failed attempt of the current run of failures; null after a success."),
      disabledAt: millis(),
      disabledReason: text().doc("Why it was disabled (410 Gone, failing for 24 h, or the workspace's own PATCH)."),
      createdAt: millis().notNull(),
      updatedAt: millis().notNull(),
    },
    extras: (t) => [index("webhook_endpoints_workspace").on(t.workspaceId)],
  }),

  webhookEvents: table("webhook_events", {
    doc: `The outbox: an event written in the same transaction as the lead or quote that caused it,
      only when the workspace has an endpoint that wants it. \`data\` is the resource as the REST
      API answers it; its id is the \`webhook-id\` of every attempt to send it.`,
    columns: {
      id: text().primaryKey(),
      workspaceId: text().notNull().references("workspaces.id"),
      type: text().notNull(),
      data: json("Record<string, unknown>").notNull(),
      createdAt: millis().notNull(),
      endpointIds: json("string[]").doc(`SQLite: the endpoints that wanted the event when it was
        written. The lead's or quote's write stores only this row; the deliverer turns it into one
        delivery per endpoint later, in batches (WebhookStore.fanOut, its place kept in meta's
        webhook_fanout). Null where the deliveries were written with the event (PostgreSQL, test
        events).`),
    },
  }),

  webhookDeliveries: table("webhook_deliveries", {
    doc: `One event to one endpoint, and how sending it went. The deliverer claims due rows by
      moving \`next_attempt_at\` past the attempt's lease (PostgreSQL: FOR UPDATE SKIP LOCKED, so
      each is sent by one instance at a time); an instance that dies mid-attempt leaves the row due
      again when the lease ends, so an event is sent at least once.`,
    columns: {
      id: int().primaryKey().identity(),
      eventId: text().notNull().references("webhookEvents.id"),
      endpointId: text().notNull().references("webhookEndpoints.id", { onDelete: "cascade" }),
      workspaceId: text().notNull(),
      status: text().notNull().doc("pending, delivered or failed (gave up after the retry window)."),
      attempts: int().notNull().default(0),
      nextAttemptAt: millis().notNull(),
      lastAttemptAt: millis(),
      responseStatus: int().doc("The last attempt's HTTP status; null when it got none (refused, timed out)."),
      latencyMs: int(),
      error: text().doc("Why the last attempt failed, in our words (never a response body)."),
      responseBody: text().doc("The first 1 KiB of the last response body, for its own workspace only."),
      deliveredAt: millis(),
      createdAt: millis().notNull(),
    },
    extras: (t) => [
      index("webhook_deliveries_due").on(t.status, t.nextAttemptAt),
      index("webhook_deliveries_endpoint").on(t.endpointId, t.id),
    ],
  }),
};
