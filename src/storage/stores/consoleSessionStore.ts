import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { consoleSessions } from "../../../db/schema.ts";
import { hashSecret, newSecret, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from "../../auth/consoleSecrets.ts";
import { run, type Awaitable, type Executor } from "../executor.ts";

export interface ConsoleSession {
  idHash: string;
  workspaceId: string;
  /** When it ends if used again now: the earlier of the idle and the absolute end. */
  endsAt: number;
}

/** Writing last-seen on every request would make reads writes; a minute is precise enough for 12 h. */
export const LAST_SEEN_PRECISION_MS = 60_000;

type SessionRow = typeof consoleSessions.$inferSelect;

/**
 * Console sessions, stored by the hash of their secret, so they survive a restart and a copy
 * of the database opens none (and, with PostgreSQL, a session works on every instance). Idle
 * timeout 12 h, absolute 7 days (src/auth/consoleSecrets.ts).
 */
export class ConsoleSessionStore {
  constructor(
    private readonly x: Executor,
    /** Told when the last-seen write fails (a read must not fail for bookkeeping). */
    private readonly storage?: { bookkeepingFailed(error: unknown, what: string): void },
  ) {}

  /** A fresh session (a new id at every sign-in); returns the secret for the cookie. */
  async start(workspaceId: string, now: number): Promise<string> {
    const secret = newSecret();
    await this.x.write(function* (db, { consoleSessions }) {
      yield* run(db.delete(consoleSessions).where(or(lt(consoleSessions.expiresAt, now), lt(consoleSessions.lastSeenAt, now - SESSION_IDLE_MS))));
      yield* run(
        db
          .insert(consoleSessions)
          .values({ idHash: hashSecret(secret), workspaceId, createdAt: now, lastSeenAt: now, expiresAt: now + SESSION_ABSOLUTE_MS, endedAt: null }),
      );
    });
    return secret;
  }

  /**
   * The live session of this secret, its idle clock restarted; undefined when over or unknown.
   * Restarting the clock is bookkeeping, like a key's lastUsedAt: written in the background,
   * not waited for, and a failure (a read-only database) is reported, never thrown.
   */
  resolve(secret: string, now: number): Awaitable<ConsoleSession | undefined> {
    const idHash = hashSecret(secret);
    const found = this.x.row((db, { consoleSessions }) => db.select().from(consoleSessions).where(eq(consoleSessions.idHash, idHash)));
    return found instanceof Promise ? found.then((row) => this.live(row, now)) : this.live(found, now);
  }

  private live(row: SessionRow | undefined, now: number): ConsoleSession | undefined {
    if (!row || row.endedAt !== null || now >= row.expiresAt || now >= row.lastSeenAt + SESSION_IDLE_MS) return undefined;
    if (now - row.lastSeenAt >= LAST_SEEN_PRECISION_MS) {
      this.x
        .apply((db, { consoleSessions }) => db.update(consoleSessions).set({ lastSeenAt: now }).where(eq(consoleSessions.idHash, row.idHash)))
        .catch((error: unknown) => this.storage?.bookkeepingFailed(error, "console session last seen"));
    }
    return { idHash: row.idHash, workspaceId: row.workspaceId, endsAt: Math.min(row.expiresAt, now + SESSION_IDLE_MS) };
  }

  /** Sign out: this session only. */
  async end(secret: string, now: number): Promise<void> {
    await this.x.apply((db, { consoleSessions }) =>
      db
        .update(consoleSessions)
        .set({ endedAt: now })
        .where(and(eq(consoleSessions.idHash, hashSecret(secret)), isNull(consoleSessions.endedAt))),
    );
  }

  /** Ends every live session of the workspace (`console-link --end-sessions`); returns how many. */
  async endAll(workspaceId: string, now: number): Promise<number> {
    const ended = await this.x.apply((db, { consoleSessions }) =>
      db
        .update(consoleSessions)
        .set({ endedAt: now })
        .where(and(eq(consoleSessions.workspaceId, workspaceId), isNull(consoleSessions.endedAt)))
        .returning({ idHash: consoleSessions.idHash }),
    );
    return ended.length;
  }
}
