import { keyStatus } from "../auth/keyStatus.ts";
import { ROLL_GRACE_MS, ROLL_GRACES, type RollGrace } from "../auth/keyVocabulary.ts";
import { EMBED_SCOPES, effectiveScopes, SCOPES, scopeSchema, type Scope } from "../auth/scopes.ts";
import { parseDuration } from "../domain/duration.ts";
import { normalizeOrigin } from "../domain/origin.ts";
import type { KeyListing } from "../storage/stores/keyStore.ts";
import { SETTINGS } from "../config.ts";
import { escapeControls } from "../domain/text.ts";
import { parseCommandArgs, plainFlag, printJson, RefusedError, UsageError, wholeNumberFlag } from "./cliSupport.ts";
import { DATABASE_FLAGS, DATABASE_FLAGS_HELP, openWorkspaceStores } from "./workspaceStores.ts";

export const KEYS_HELP = `Usage:
  broker-directory keys create --workspace NAME [--name LABEL] [--scopes a,b] [--rate-limit N]
                               [--expires-in 30d] [--origins https://a.example,https://b.example] [--json]
  broker-directory keys list [--workspace NAME] [--json]
  broker-directory keys revoke <id>
  broker-directory keys roll <id> [--grace now|1h|24h|7d] [--json]

All take ${DATABASE_FLAGS_HELP}

create   Makes a key and prints it once; only its SHA-256 hash is stored.
         --scopes      comma-separated, from: ${SCOPES.join(", ")} (default: all but keys:manage,
                       webhooks:manage and directory:write, which are only ever granted by name;
                       for an embed key, only ${EMBED_SCOPES.join(", ")}: never leads:read)
         --rate-limit  requests per minute, 1 to 1,000,000 (default 100)
         --expires-in  a duration: 90m, 12h, 30d, 2w, 1y (default: never)
         --origins     browser origins; makes a browser-safe embed key that works only on
                       /api/v1/embed/* from those origins
         A workspace holds at most MAX_KEYS_PER_WORKSPACE live keys (default 100); the
         operator's CLI is bound by it too: run with a higher value to go past it.
list     Shows every key (or one workspace's) without the secret, under a header row: id,
         workspace, name, prefix, status, scopes, rate limit, origins.
revoke   Revokes a key at once; requests with it get 401.
roll     Replaces a live key with a new one of the same settings and prints the new key once;
         the old one stops after --grace (default 24h; now revokes it at once), as in the console.`;

export async function keysCommand(args: string[], env: Record<string, string | undefined>, now = Date.now()): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === "--help" || sub === "-h" || sub === "help") return console.log(KEYS_HELP);
  if (sub === "create") return createKey(rest, env, now);
  if (sub === "list") return listKeys(rest, env, now);
  if (sub === "revoke") return revokeKey(rest, env, now);
  if (sub === "roll") return rollKey(rest, env, now);
  throw new UsageError(`Unknown keys command ${JSON.stringify(sub)}: use create, list, revoke or roll.\nRun 'keys --help' for usage.`);
}

async function createKey(args: string[], env: Record<string, string | undefined>, now: number): Promise<void> {
  const { values } = parseCommandArgs(
    args,
    {
      workspace: { type: "string" },
      name: { type: "string" },
      scopes: { type: "string" },
      "rate-limit": { type: "string" },
      "expires-in": { type: "string" },
      origins: { type: "string" },
      json: { type: "boolean" },
      ...DATABASE_FLAGS,
    },
    "keys create",
  );
  if (values.help) return console.log(KEYS_HELP);
  const workspace = plainFlag(values.workspace, "workspace")?.trim();
  const name = plainFlag(values.name, "name");
  if (!workspace) throw new UsageError("--workspace NAME is required.\nRun 'keys --help' for usage.");
  const scopes = parseScopes(values.scopes);
  const rateLimitPerMinute = wholeNumberFlag(values["rate-limit"], "rate-limit", 1, 1_000_000);
  let expiresAt: number | null = null;
  if (values["expires-in"] !== undefined) {
    const ms = parseDuration(values["expires-in"]);
    if (ms === undefined) throw new UsageError(`--expires-in must look like 90m, 12h, 30d, 2w or 1y (got ${JSON.stringify(values["expires-in"])}).`);
    expiresAt = now + ms;
  }
  const origins = parseOrigins(values.origins);
  const outside = origins ? (scopes ?? []).filter((s) => !EMBED_SCOPES.includes(s)) : [];
  if (outside.length > 0) throw new UsageError(`An embed key (one with --origins) can only hold ${EMBED_SCOPES.join(", ")}: remove ${outside.join(", ")}.`);

  const maxKeys = maxKeysPerWorkspace(env);
  const { keys, close } = await openWorkspaceStores(values, env);
  try {
    const made = await keys.createBounded(await keys.ensureWorkspace(workspace, now), { name, scopes, rateLimitPerMinute, expiresAt, origins }, now, maxKeys);
    if ("refused" in made) {
      throw new RefusedError(
        `Workspace ${escapeControls(JSON.stringify(workspace))} already has ${maxKeys} live keys (MAX_KEYS_PER_WORKSPACE): revoke one first (keys list, keys revoke <id>), or run this command with a higher MAX_KEYS_PER_WORKSPACE to go past it once.`,
      );
    }
    const { key, record } = made;
    if (values.json) {
      printJson({ ...describe(record, now), key });
    } else {
      console.log(`Created ${record.id} in workspace ${escapeControls(record.workspaceName)} (${record.scopes.join(" ")}).`);
      console.log(`Key (shown once, store it now): ${key}`);
    }
  } finally {
    await close();
  }
}

async function listKeys(args: string[], env: Record<string, string | undefined>, now: number): Promise<void> {
  const { values } = parseCommandArgs(args, { workspace: { type: "string" }, json: { type: "boolean" }, ...DATABASE_FLAGS }, "keys list");
  if (values.help) return console.log(KEYS_HELP);
  const workspace = plainFlag(values.workspace, "workspace")?.trim();
  const { keys, close } = await openWorkspaceStores(values, env);
  try {
    const listed = (await keys.list()).filter((k) => workspace === undefined || k.workspaceName === workspace).map((k) => describe(k, now));
    if (values.json) return printJson(listed);
    if (listed.length === 0) {
      return console.log(workspace === undefined ? "No keys. Create one with: keys create --workspace NAME" : `No keys in workspace ${escapeControls(JSON.stringify(workspace))}.`);
    }
    // Every field as stored, escaped: a name written before names were checked cannot drive the terminal.
    const rows = listed.map((k) => [k.id, k.workspace, k.name, `${k.prefix}…`, k.status, k.scopes.join(","), `${k.rateLimitPerMinute}/min`, k.origins ? k.origins.join(",") : "-"].map(escapeControls));
    console.log(table(["ID", "WORKSPACE", "NAME", "PREFIX", "STATUS", "SCOPES", "RATE", "ORIGINS"], rows));
  } finally {
    await close();
  }
}

/** Columns padded to their widest cell (the last one left ragged), two spaces apart. */
function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join("  ");
  return [header, ...rows].map(line).join("\n");
}

async function revokeKey(args: string[], env: Record<string, string | undefined>, now: number): Promise<void> {
  const { values, positionals } = parseCommandArgs(args, { ...DATABASE_FLAGS }, "keys revoke", true);
  if (values.help) return console.log(KEYS_HELP);
  const id = positionals[0];
  if (!id || positionals.length > 1) throw new UsageError("Name exactly one key id: keys revoke <id> (see keys list).");
  const { keys, close } = await openWorkspaceStores(values, env);
  try {
    if (!(await keys.revoke(id, now))) throw new UsageError(`No key has the id ${JSON.stringify(id)} (see keys list).`);
    console.log(`Revoked ${id}.`);
  } finally {
    await close();
  }
}

async function rollKey(args: string[], env: Record<string, string | undefined>, now: number): Promise<void> {
  const { values, positionals } = parseCommandArgs(args, { grace: { type: "string" }, json: { type: "boolean" }, ...DATABASE_FLAGS }, "keys roll", true);
  if (values.help) return console.log(KEYS_HELP);
  const id = positionals[0];
  if (!id || positionals.length > 1) throw new UsageError("Name exactly one key id: keys roll <id> (see keys list).");
  const grace = (values.grace ?? "24h") as RollGrace;
  if (!ROLL_GRACES.includes(grace)) throw new UsageError(`--grace must be one of ${ROLL_GRACES.join(", ")} (got ${JSON.stringify(values.grace)}).`);
  const maxKeys = maxKeysPerWorkspace(env);
  const { keys, close } = await openWorkspaceStores(values, env);
  try {
    const old = (await keys.list()).find((k) => k.id === id);
    if (!old) throw new UsageError(`No key has the id ${JSON.stringify(id)} (see keys list).`);
    const workspace = await keys.workspaceById(old.workspaceId);
    if (!workspace) throw new RefusedError(`The key's workspace ${old.workspaceId} no longer exists.`);
    // The same store call as the console's and the API's roll: at most one successor, within the workspace's maximum.
    const rolled = await keys.roll(id, workspace, ROLL_GRACE_MS[grace], now, maxKeys);
    if ("refused" in rolled) {
      throw new RefusedError(
        rolled.refused === "workspace-full"
          ? `Workspace ${escapeControls(JSON.stringify(workspace.name))} already has ${maxKeys} live keys (MAX_KEYS_PER_WORKSPACE): roll with --grace now, or revoke a key first.`
          : `${id} is not live or was rolled already (${old.replacedBy ? `by ${old.replacedBy}: roll that one` : keyStatus(old, now)}).`,
      );
    }
    if (values.json) return printJson({ ...describe(rolled.record, now), key: rolled.key, previous: describe(rolled.previous, now) });
    const stops = rolled.previous.revokedAt !== null ? "was revoked now" : `keeps working until ${new Date(rolled.previous.expiresAt!).toISOString()}`;
    console.log(`Rolled ${id} into ${rolled.record.id} in workspace ${escapeControls(workspace.name)}; the old key ${stops}.`);
    console.log(`Key (shown once, store it now): ${rolled.key}`);
  } finally {
    await close();
  }
}

/** The maximum of live keys per workspace, read from MAX_KEYS_PER_WORKSPACE as serve reads it. */
function maxKeysPerWorkspace(env: Record<string, string | undefined>): number {
  const parsed = SETTINGS.maxKeysPerWorkspace.schema.safeParse(env.MAX_KEYS_PER_WORKSPACE || undefined);
  if (!parsed.success) throw new UsageError(parsed.error.issues.map((i) => i.message).join("\n"));
  return parsed.data;
}

function parseScopes(text: string | undefined): Scope[] | undefined {
  if (text === undefined) return undefined;
  const names = text.split(",").map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !scopeSchema.safeParse(n).success);
  if (unknown.length > 0) throw new UsageError(`Unknown scope ${unknown.join(", ")}: choose from ${SCOPES.join(", ")}.`);
  return names as Scope[];
}

function parseOrigins(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  const origins = text.split(",").map((s) => s.trim()).filter(Boolean);
  if (origins.length === 0) throw new UsageError("--origins needs at least one origin, e.g. https://partner.example.");
  return origins.map((o) => {
    const origin = normalizeOrigin(o);
    if (!origin) throw new UsageError(`${JSON.stringify(o)} is not an origin: write scheme and host only, e.g. https://partner.example or http://localhost:8080.`);
    return origin;
  });
}

function describe(k: KeyListing, now: number) {
  const status = keyStatus(k, now);
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    id: k.id,
    workspace: k.workspaceName,
    workspaceId: k.workspaceId,
    name: k.name,
    prefix: k.displayPrefix,
    // What the key can really do: an embed key's stored leads:read (made before defaultScopesFor) is never honoured.
    scopes: effectiveScopes(k.scopes, k.origins),
    rateLimitPerMinute: k.rateLimitPerMinute,
    origins: k.origins,
    status,
    expiresAt: iso(k.expiresAt),
    revokedAt: iso(k.revokedAt),
    createdAt: iso(k.createdAt),
    lastUsedAt: iso(k.lastUsedAt),
  };
}
