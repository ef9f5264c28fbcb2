import { and, eq, gt, isNull, lt } from "drizzle-orm";
import { hashSecret, LINK_LIFETIME_MS, newSecret } from "../../auth/consoleSecrets.ts";
import { run, type Executor } from "../executor.ts";

/** One-time sign-in links of the console: made by `console-link`, spent by opening them (on any instance with PostgreSQL). */
export class ConsoleLinkStore {
  constructor(private readonly x: Executor) {}

  /** A new link token for the workspace (returned once; only its hash is kept). */
  async create(workspaceId: string, now: number): Promise<{ token: string; expiresAt: number }> {
    const token = newSecret();
    const expiresAt = now + LINK_LIFETIME_MS;
    await this.x.write(function* (db, { consoleLinks }) {
      // Spent and expired links are of no use to anyone: drop them as new ones are made.
      yield* run(db.delete(consoleLinks).where(lt(consoleLinks.expiresAt, now)));
      yield* run(db.insert(consoleLinks).values({ tokenHash: hashSecret(token), workspaceId, createdAt: now, expiresAt, usedAt: null }));
    });
    return { token, expiresAt };
  }

  /**
   * Spends the link and returns its workspace, or undefined when it is unknown, used or expired.
   * A read first, so a flood of bad guesses never writes (nor takes SQLite's write lock); then
   * one UPDATE … RETURNING with the same conditions: two tabs (or two instances) pressing the
   * same link cannot both win.
   */
  async redeem(token: string, now: number): Promise<string | undefined> {
    const { consoleLinks } = this.x.t;
    const usable = and(eq(consoleLinks.tokenHash, hashSecret(token)), isNull(consoleLinks.usedAt), gt(consoleLinks.expiresAt, now));
    if (!(await this.x.row((db) => db.select({ tokenHash: consoleLinks.tokenHash }).from(consoleLinks).where(usable)))) return undefined;
    const [spent] = await this.x.apply((db) => db.update(consoleLinks).set({ usedAt: now }).where(usable).returning({ workspaceId: consoleLinks.workspaceId }));
    return spent?.workspaceId;
  }
}
