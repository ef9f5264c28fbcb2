import { and, eq, gt, isNull, lt } from "drizzle-orm";
import { consoleLinks } from "../../../db/schema.ts";
import { hashSecret, LINK_LIFETIME_MS, newSecret } from "../../auth/consoleSecrets.ts";
import type { DirectoryDb } from "../sqlite/database.ts";
import { GroupCommit } from "../sqlite/groupCommit.ts";

/** One-time sign-in links of the console: made by `console-link`, spent by opening them. */
export class ConsoleLinkStore {
  private readonly writes: GroupCommit;

  constructor(private readonly db: DirectoryDb) {
    this.writes = GroupCommit.of(db.$client);
  }

  /** A new link token for the workspace (returned once; only its hash is kept). */
  async create(workspaceId: string, now: number): Promise<{ token: string; expiresAt: number }> {
    const token = newSecret();
    const expiresAt = now + LINK_LIFETIME_MS;
    await this.writes.write(() => {
      // Spent and expired links are of no use to anyone: drop them as new ones are made.
      this.db.delete(consoleLinks).where(lt(consoleLinks.expiresAt, now)).run();
      this.db.insert(consoleLinks).values({ tokenHash: hashSecret(token), workspaceId, createdAt: now, expiresAt, usedAt: null }).run();
    });
    return { token, expiresAt };
  }

  /**
   * Spends the link and returns its workspace, or undefined when it is unknown, used or expired.
   * A read first, so a flood of bad guesses never takes the write lock; then one UPDATE …
   * RETURNING with the same conditions: two tabs pressing the same link cannot both win.
   */
  async redeem(token: string, now: number): Promise<string | undefined> {
    const usable = and(eq(consoleLinks.tokenHash, hashSecret(token)), isNull(consoleLinks.usedAt), gt(consoleLinks.expiresAt, now));
    if (!this.db.select({ tokenHash: consoleLinks.tokenHash }).from(consoleLinks).where(usable).get()) return undefined;
    const row = await this.writes.write(() => this.db.update(consoleLinks).set({ usedAt: now }).where(usable).returning({ workspaceId: consoleLinks.workspaceId }).get());
    return row?.workspaceId;
  }
}
