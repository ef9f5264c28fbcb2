import { and, eq, gt, isNull, lt } from "drizzle-orm";
import { consoleLinks } from "../../../db/schema.pg.ts";
import { hashSecret, LINK_LIFETIME_MS, newSecret } from "../../auth/consoleSecrets.ts";
import type { ConsoleLinkStorePort } from "../ports.ts";
import type { PgDb } from "./pgDatabase.ts";

/** ConsoleLinkStore over PostgreSQL (see src/storage/stores/consoleLinkStore.ts): a link opens one session, on any instance. */
export class PgConsoleLinkStore implements ConsoleLinkStorePort {
  constructor(private readonly pg: PgDb) {}

  /** A new link token for the workspace (returned once; only its hash is kept). */
  async create(workspaceId: string, now: number): Promise<{ token: string; expiresAt: number }> {
    // Spent and expired links are of no use to anyone: drop them as new ones are made.
    await this.pg.delete(consoleLinks).where(lt(consoleLinks.expiresAt, now));
    const token = newSecret();
    const expiresAt = now + LINK_LIFETIME_MS;
    await this.pg.insert(consoleLinks).values({ tokenHash: hashSecret(token), workspaceId, createdAt: now, expiresAt, usedAt: null });
    return { token, expiresAt };
  }

  /**
   * Spends the link and returns its workspace, or undefined when it is unknown, used or expired.
   * A read first, so bad guesses write nothing; then one UPDATE … RETURNING with the same
   * conditions: two tabs (or two instances) pressing the same link cannot both win.
   */
  async redeem(token: string, now: number): Promise<string | undefined> {
    const usable = and(eq(consoleLinks.tokenHash, hashSecret(token)), isNull(consoleLinks.usedAt), gt(consoleLinks.expiresAt, now));
    const [found] = await this.pg.select({ tokenHash: consoleLinks.tokenHash }).from(consoleLinks).where(usable);
    if (!found) return undefined;
    const [row] = await this.pg.update(consoleLinks).set({ usedAt: now }).where(usable).returning({ workspaceId: consoleLinks.workspaceId });
    return row?.workspaceId;
  }
}
