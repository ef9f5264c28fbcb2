import { EMBED_SCOPES, type Scope } from "../auth/scopes.ts";
import type { Services } from "../services.ts";
import type { KeyListing } from "../storage/stores/keyStore.ts";
import type { Awaitable } from "../storage/ports.ts";

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

/** Which workspace a page key lives in, what it may do and how often: the demo page's, or the console's preview. */
export interface PageKeyKind {
  workspace: string;
  scopes: Scope[];
  rateLimitPerMinute: number;
}

const DEMO_PAGE: PageKeyKind = { workspace: DEMO_PAGE_WORKSPACE, scopes: [...EMBED_SCOPES], rateLimitPerMinute: DEMO_PAGE_RATE_LIMIT };

/**
 * The embed key the console's "Copy embed code" preview renders the widget with, on the
 * server's own origin: a partner's embed key only works on the partner's origins (and the
 * console never holds a key's secret). Its own workspace, no leads:write: a preview can show
 * quotes but never files a lead in anyone's inbox. Every console user of an instance shares it.
 */
export const CONSOLE_PREVIEW: PageKeyKind = { workspace: "console-preview", scopes: ["brokers:read", "reviews:read", "quotes:write"], rateLimitPerMinute: 600 };

/**
 * The embed key the /demo page puts in its markup (and, of CONSOLE_PREVIEW, the console's preview). Only key hashes are stored, so the page
 * cannot read one back: each running instance makes its own (named after the instance, so a
 * second server on the same file never touches it), on first use, valid for a day, renewed
 * while at least two hours are left, and revoked when the instance stops.
 */
export class DemoPageKey {
  private readonly name: string;
  private readonly made: { id: string; key: string; expiresAt: number }[] = [];
  /** The key being made (PostgreSQL), so pages asking at once share one. */
  private making: Promise<string | undefined> | undefined;

  constructor(
    private readonly services: Services,
    private readonly origins: string[],
    private readonly kind: PageKeyKind = DEMO_PAGE,
  ) {
    this.name = `${kind === DEMO_PAGE ? "demo page" : kind.workspace} (instance ${crypto.randomUUID().slice(0, 8)})`;
  }

  /**
   * The key to show now, made or renewed if needed; undefined when it cannot be written. At
   * once over SQLite; over PostgreSQL a key being made is awaited by every page asking meanwhile.
   */
  current(): Awaitable<string | undefined> {
    const now = this.services.now();
    const latest = this.made.at(-1);
    if (latest && latest.expiresAt - now > RENEW_BEFORE_MS) return latest.key;
    if (this.making) return this.making;
    const failed = (error: unknown) => {
      // A read-only, full or unreachable database: the page says it has no key rather than failing.
      this.services.log.warn("demo page key not created", { error: error instanceof Error ? error.message : String(error) });
      return latest && latest.expiresAt > now ? latest.key : undefined;
    };
    const keep = ({ key, record }: { key: string; record: KeyListing }) => {
      this.made.push({ id: record.id, key, expiresAt: now + LIFETIME_MS });
      return key;
    };
    try {
      const created = this.services.keys.create(
        {
          workspace: this.kind.workspace,
          name: this.name,
          scopes: [...this.kind.scopes],
          origins: this.origins,
          expiresAt: now + LIFETIME_MS,
          rateLimitPerMinute: this.kind.rateLimitPerMinute,
        },
        now,
      );
      if (!(created instanceof Promise)) return keep(created);
      this.making = created.then(keep, failed).finally(() => (this.making = undefined));
      return this.making;
    } catch (error) {
      return failed(error);
    }
  }

  /** At stop: this instance's keys stop working (another instance's are left alone). Never rejects. */
  async revokeAll(): Promise<void> {
    const now = this.services.now();
    // Best effort: an unrevoked demo key still expires within a day.
    await Promise.all(this.made.splice(0).map(async ({ id }) => this.services.keys.revoke(id, now)).map((p) => p.catch(() => false)));
  }
}
