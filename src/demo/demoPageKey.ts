import { EMBED_SCOPES } from "../auth/scopes.ts";
import type { Services } from "../services.ts";
import { DEMO_WORKSPACE } from "./ensureDemoData.ts";

const DEMO_PAGE_KEY_NAME = "demo page (created at start)";
const ONE_DAY_MS = 24 * 3600 * 1000;

/**
 * The embed key the /demo page puts in its markup. Only key hashes are stored, so the page
 * cannot read one back: each start makes a fresh embed key for the server's own origins,
 * valid for a day, and revokes the one the previous start made. It lives in memory only.
 */
export function createDemoPageKey(services: Services, origins: string[]): string {
  const now = services.now();
  services.keys.revokeNamed(DEMO_WORKSPACE, DEMO_PAGE_KEY_NAME, now);
  return services.keys.create(
    {
      workspace: DEMO_WORKSPACE,
      name: DEMO_PAGE_KEY_NAME,
      scopes: [...EMBED_SCOPES],
      origins,
      expiresAt: now + ONE_DAY_MS,
      rateLimitPerMinute: 600,
    },
    now,
  ).key;
}
