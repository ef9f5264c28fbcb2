import { and, eq, isNull, lt, or } from "drizzle-orm";
import { consoleSessions } from "../../../db/schema.pg.ts";
import { hashSecret, newSecret, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from "../../auth/consoleSecrets.ts";
import { LAST_SEEN_PRECISION_MS, type ConsoleSession } from "../stores/consoleSessionStore.ts";
import type { ConsoleSessionStorePort } from "../ports.ts";
import type { StorageHealth } from "../sqlite/storageHealth.ts";
import type { PgDb } from "./pgDatabase.ts";

/** ConsoleSessionStore over PostgreSQL (see src/storage/stores/consoleSessionStore.ts): a session works on every instance. */
export class PgConsoleSessionStore implements ConsoleSessionStorePort {
  constructor(
    private readonly pg: PgDb,
    /** Told when the last-seen write fails (a read must not fail for bookkeeping). */
    private readonly storage?: Pick<StorageHealth, "bookkeepingFailed">,
  ) {}

  /** A fresh session (a new id at every sign-in); returns the secret for the cookie. */
  async start(workspaceId: string, now: number): Promise<string> {
    await this.pg.delete(consoleSessions).where(or(lt(consoleSessions.expiresAt, now), lt(consoleSessions.lastSeenAt, now - SESSION_IDLE_MS)));
    const secret = newSecret();
    await this.pg
      .insert(consoleSessions)
      .values({ idHash: hashSecret(secret), workspaceId, createdAt: now, lastSeenAt: now, expiresAt: now + SESSION_ABSOLUTE_MS, endedAt: null });
    return secret;
  }

  /**
   * The live session of this secret, its idle clock restarted (bookkeeping, in the background:
   * the request neither waits for it nor fails with it); undefined when over or unknown.
   */
  async resolve(secret: string, now: number): Promise<ConsoleSession | undefined> {
    const idHash = hashSecret(secret);
    const [row] = await this.pg.select().from(consoleSessions).where(eq(consoleSessions.idHash, idHash));
    if (!row || row.endedAt !== null || now >= row.expiresAt || now >= row.lastSeenAt + SESSION_IDLE_MS) return undefined;
    if (now - row.lastSeenAt >= LAST_SEEN_PRECISION_MS) {
      this.pg
        .update(consoleSessions)
        .set({ lastSeenAt: now })
        .where(eq(consoleSessions.idHash, idHash))
        .then(
          () => {},
          (error: unknown) => this.storage?.bookkeepingFailed(error, "console session last seen"),
        );
    }
    return { idHash, workspaceId: row.workspaceId, endsAt: Math.min(row.expiresAt, now + SESSION_IDLE_MS) };
  }

  /** Sign out: this session only. */
  async end(secret: string, now: number): Promise<void> {
    await this.pg
      .update(consoleSessions)
      .set({ endedAt: now })
      .where(and(eq(consoleSessions.idHash, hashSecret(secret)), isNull(consoleSessions.endedAt)));
  }

  /** Ends every live session of the workspace (`console-link --end-sessions`); returns how many. */
  async endAll(workspaceId: string, now: number): Promise<number> {
    const ended = await this.pg
      .update(consoleSessions)
      .set({ endedAt: now })
      .where(and(eq(consoleSessions.workspaceId, workspaceId), isNull(consoleSessions.endedAt)))
      .returning({ idHash: consoleSessions.idHash });
    return ended.length;
  }
}
