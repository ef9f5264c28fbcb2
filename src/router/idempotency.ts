import { createHash } from "node:crypto";
import { openAnswer, sealAnswer } from "../auth/answerSeal.ts";
import { CodedError } from "../schemas/errorCodes.ts";
import { IDEMPOTENCY_KEY_HEADER, idempotencyKeySchema } from "../schemas/idempotencyKey.ts";
import type { IdempotencyRecord } from "../storage/stores/idempotencyStore.ts";
import type { Context, IdempotencyRequest } from "./trpc.ts";

/** The write of a resource with its idempotency record: the record holding the key instead, when another request took it first. */
export type WriteWithRecord = (record: IdempotencyRecord | undefined) => Promise<IdempotencyRecord | undefined>;

/**
 * Creates once per idempotency key. Without a key, `create` runs as it always did. With one,
 * `create` runs and hands its answer and its write to `answerOnce`, which stores the answer in
 * the same transaction as the resource, if the write claims the key. If a live record holds the
 * key already, nothing is written: the same request gets that record's answer (a replay), another
 * request a conflict (422 idempotency_conflict). Two requests with one key at once: both may run
 * `create`, one write claims the key and the other writes nothing and replays the first's answer.
 *
 * The key is not looked up before `create` (a read every keyed write paid, 11 % of a keyed lead
 * POST's time in the profile): the claim in the write finds a holder anyway. Only when `create`
 * refuses is the key looked up, so a retry still replays its first answer when the request would
 * now be refused (the broker it named unpublished since, the workspace's keys full) and a
 * refused other request under a used key is still a conflict.
 *
 * "The same request" is the procedure, the surface (REST, embed, tRPC, MCP) and the input as
 * the procedure's schema parsed it (key order and the phone's spelling aside), within the
 * workspace: any key of the workspace replays it. An answer holding a secret (`sealed`: a new
 * API key) is stored sealed under the caller's own API key (src/auth/answerSeal.ts), so the
 * same request is also the same API key, and only it replays.
 */
export async function createOnce<T>(
  ctx: Context,
  path: string,
  input: unknown,
  create: (claim: IdempotencyClaim | undefined) => Promise<T>,
  options: { sealed?: boolean } = {},
): Promise<T> {
  const request = ctx.idempotency;
  // A sealed answer needs the caller's key to seal it under (a console session has none).
  if (!request || !ctx.principal || (options.sealed && request.callerKey === undefined)) return create(undefined);
  const key = idempotencyKeySchema.safeParse(request.key);
  if (!key.success) {
    throw new CodedError("invalid_parameter", `The idempotency key (the ${IDEMPOTENCY_KEY_HEADER} header, or MCP's idempotencyKey argument) ${key.error.issues[0]!.message}.`);
  }
  const now = ctx.services.now();
  const caller = options.sealed ? ctx.principal.keyId : undefined;
  const claim = new IdempotencyClaim(request, ctx.principal.workspaceId, key.data, fingerprintOf([path, ctx.surface, caller, canonical(input)]), now, options.sealed === true);
  try {
    return await create(claim);
  } catch (refusal) {
    // (A conflict found by the write lands here too, and is found again: the same answer.)
    const held = await Promise.resolve(ctx.services.idempotency.find(claim.workspaceId, claim.key, now)).catch(() => undefined);
    if (held) return claim.answerFrom<T>(held);
    throw refusal;
  }
}

/** Writes the resource with the claim's record (or alone, without a claim) and returns the answer to give. */
export async function answerOnce<T>(claim: IdempotencyClaim | undefined, answer: T, write: WriteWithRecord): Promise<T> {
  const held = await write(claim?.recordOf(answer));
  return held && claim ? claim.answerFrom<T>(held) : answer;
}

/** The request's hold on its key, until its write claims it (see claimKey). */
export class IdempotencyClaim {
  constructor(
    private readonly request: IdempotencyRequest,
    readonly workspaceId: string,
    readonly key: string,
    private readonly fingerprint: string,
    private readonly now: number,
    private readonly sealed: boolean,
  ) {}

  /** The record to write with the resource: this request and its answer (sealed when it holds a secret). */
  recordOf(answer: unknown): IdempotencyRecord {
    const text = JSON.stringify(answer);
    const stored = this.sealed ? sealAnswer(text, this.request.callerKey!, this.workspaceId, this.key) : text;
    return { workspaceId: this.workspaceId, key: this.key, fingerprint: this.fingerprint, answer: stored, createdAt: this.now };
  }

  /** The stored first answer when the record is of this same request (a replay), else a conflict. */
  answerFrom<T>(held: IdempotencyRecord): T {
    const text = held.fingerprint !== this.fingerprint ? undefined : this.sealed ? openAnswer(held.answer, this.request.callerKey!, this.workspaceId, this.key) : held.answer;
    if (text === undefined) {
      throw new CodedError(
        "idempotency_conflict",
        `This ${IDEMPOTENCY_KEY_HEADER} was already used for a different request in the last 24 hours. Use a new key for a new request; a retry must send the same body to the same endpoint.`,
      );
    }
    this.request.replayed = true;
    return JSON.parse(text) as T;
  }
}

/** SHA-256 of what makes the request (the procedure, the surface, the input in canonical JSON: object keys sorted). */
function fingerprintOf(parts: readonly unknown[]): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex");
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value instanceof Date) return value.toISOString();
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, canonical(v)]));
}
