import { EMBED_SCOPES } from "../auth/scopes.ts";
import type { Services } from "../services.ts";

/**
 * Its own workspace: no key with leads:read lives beside it, so the leads anyone writes
 * through the demo page (its key is in the page, hence public) are listed by nobody.
 */
export const DEMO_PAGE_WORKSPACE = "demo-page";
/** Enough for a few page loads a minute (one load makes about seven requests). */
export const DEMO_PAGE_RATE_LIMIT = 60;
const LIFETIME_MS = 24 * 3600 * 1000;
/** A page is never handed a key with less than this left; the older key then expires on its own. */
const RENEW_BEFORE_MS = 2 * 3600 * 1000;

/**
 * The embed key the /demo page puts in its markup. Only key hashes are stored, so the page
 * cannot read one back: each running instance makes its own (named after the instance, so a
 * second server on the same file never touches it), on first use, valid for a day, renewed
 * while at least two hours are left, and revoked when the instance stops.
 */
export class DemoPageKey {
  private readonly name = `demo page (instance ${crypto.randomUUID().slice(0, 8)})`;
  private readonly made: { id: string; key: string; expiresAt: number }[] = [];

  constructor(
    private readonly services: Services,
    private readonly origins: string[],
  ) {}

  /** The key to show now, made or renewed if needed; undefined when it cannot be written. */
  current(): string | undefined {
    const now = this.services.now();
    const latest = this.made.at(-1);
    if (latest && latest.expiresAt - now > RENEW_BEFORE_MS) return latest.key;
    try {
      const { key, record } = this.services.keys.create(
        {
          workspace: DEMO_PAGE_WORKSPACE,
          name: this.name,
          scopes: [...EMBED_SCOPES],
          origins: this.origins,
          expiresAt: now + LIFETIME_MS,
          rateLimitPerMinute: DEMO_PAGE_RATE_LIMIT,
        },
        now,
      );
      this.made.push({ id: record.id, key, expiresAt: now + LIFETIME_MS });
      return key;
    } catch (error) {
      // A read-only or full database: the page says it has no key rather than failing.
      this.services.log.warn("demo page key not created", { error: error instanceof Error ? error.message : String(error) });
      return latest && latest.expiresAt > now ? latest.key : undefined;
    }
  }

  /** At stop: this instance's keys stop working (another instance's are left alone). */
  revokeAll(): void {
    const now = this.services.now();
    for (const { id } of this.made.splice(0)) {
      try {
        this.services.keys.revoke(id, now);
      } catch {
        // Best effort: an unrevoked demo key still expires within a day.
      }
    }
  }
}
