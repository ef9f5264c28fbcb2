import { and, eq, gt, isNull, lt } from "drizzle-orm";
import { consoleLinks } from "../../db/schema.ts";
import { hashSecret, LINK_LIFETIME_MS, newSecret } from "../auth/consoleSecrets.ts";
import type { DirectoryDb } from "./database.ts";
import { GroupCommit } from "./groupCommit.ts";

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
   * One UPDATE … RETURNING: two tabs opening the same link cannot both win.
   */
  async redeem(token: string, now: number): Promise<string | undefined> {
    const row = await this.writes.write(() =>
      this.db
        .update(consoleLinks)
        .set({ usedAt: now })
        .where(and(eq(consoleLinks.tokenHash, hashSecret(token)), isNull(consoleLinks.usedAt), gt(consoleLinks.expiresAt, now)))
        .returning({ workspaceId: consoleLinks.workspaceId })
        .get(),
    );
    return row?.workspaceId;
  }
}
