import { z } from "zod";
import { TEAM_SIZES } from "../../domain/teamSize.ts";
import { BROKER_STATES, HIDE_REASONS, REVIEW_STATES } from "../../domain/directoryStates.ts";

export { BROKER_STATES, HIDE_REASONS };
import type { Principal } from "../../auth/admitRequest.ts";
import { locationSchema } from "../../schemas/broker.ts";
import { CodedError } from "../../schemas/errorCodes.ts";
import { freeText } from "../../schemas/recordFields.ts";
import type { AuditEntry } from "../../storage/stores/directoryAuditStore.ts";
import type { BrokerWithOffices, DirectoryWriteStore, ReviewWithModeration, StoredReview } from "../../storage/stores/directoryWriteStore.ts";
import { said } from "../../schemas/frenchMessages.ts";

/**
 * What the write API (issue 27 section 2, scope directory:write) answers: a broker in any state
 * with the operator's own fields (externalId, state), a review in any state with why it is
 * hidden, and an entry of the audit trail.
 */

const iso = (ms: number) => new Date(ms).toISOString();


export const directoryBrokerSchema = z.object({
  id: z.string().describe("The broker's id, an opaque string ({id} of these routes; the public reviews endpoint takes it too)"),
  externalId: z.string().nullable().describe("The operator's own key for the broker (a CRM id); null when none"),
  slug: z.string().describe("Its address on the public surfaces: GET /api/v1/brokers/{slug}"),
  state: z.enum(BROKER_STATES).describe("published: on every public surface; unpublished: on none, its reviews and history kept"),
  name: z.string(),
  description: z.string(),
  province: z.string().describe("Province of the primary office"),
  city: z.string().describe("City of the primary office"),
  email: z.string().nullable(),
  phone: z.string().nullable().describe("E.164"),
  website: z.string().nullable(),
  foundingYear: z.number().int().nullable(),
  teamSize: z.string().describe(`One of ${TEAM_SIZES.join(", ")}`),
  licenseNumber: z.string().nullable(),
  isVerified: z.boolean(),
  insuranceLines: z.array(z.string()),
  specialties: z.array(z.string()),
  languages: z.array(z.string()),
  averageRating: z.number().describe("Mean of the published reviews' ratings; 0 when none"),
  reviewCount: z.number().int().describe("Number of published reviews (hidden ones do not count)"),
  locations: z.array(locationSchema).describe("Offices, primary first"),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type DirectoryBroker = z.infer<typeof directoryBrokerSchema>;

export function toDirectoryBroker({ broker: b, offices }: BrokerWithOffices): DirectoryBroker {
  return {
    id: String(b.id),
    externalId: b.externalId,
    slug: b.slug,
    state: b.published ? "published" : "unpublished",
    name: b.name,
    description: b.description,
    province: b.province,
    city: b.city,
    email: b.email,
    phone: b.phone,
    website: b.website,
    foundingYear: b.foundingYear,
    teamSize: b.teamSize,
    licenseNumber: b.licenseNumber,
    isVerified: b.isVerified,
    insuranceLines: b.insuranceLines,
    specialties: b.specialties,
    languages: b.languages,
    averageRating: b.averageRating ?? 0,
    reviewCount: b.reviewCount,
    locations: offices.map((o) => ({
      id: String(o.id),
      address: o.address,
      city: o.city,
      province: o.province as z.infer<typeof locationSchema>["province"],
      postalCode: o.postalCode,
      phone: o.phone,
      latitude: o.latitude,
      longitude: o.longitude,
      isPrimary: o.isPrimary,
    })),
    createdAt: iso(b.createdAt),
    updatedAt: iso(b.updatedAt),
  };
}


export const directoryReviewSchema = z.object({
  id: z.string(),
  brokerId: z.string(),
  externalId: z.string().nullable(),
  state: z.enum(REVIEW_STATES).describe("hidden: off every public read and out of the broker's rating"),
  rating: z.number().int(),
  title: z.string(),
  content: z.string().describe("The author's text: never edited, only hidden or restored"),
  authorName: z.string(),
  createdAt: z.string(),
  hidden: z
    .object({ reason: z.string().nullable(), note: z.string().nullable(), at: z.string() })
    .nullable()
    .describe("Why and when it was hidden (its latest hiding); null when published"),
});
export type DirectoryReview = z.infer<typeof directoryReviewSchema>;

export function toDirectoryReview(review: ReviewWithModeration | (StoredReview & { hidden?: undefined })): DirectoryReview {
  return {
    id: String(review.id),
    brokerId: String(review.brokerId),
    externalId: review.externalId,
    state: review.published ? "published" : "hidden",
    rating: review.rating,
    title: review.title,
    content: review.body,
    authorName: review.authorName,
    createdAt: iso(review.createdAt),
    hidden: review.published || !review.hidden ? null : { reason: review.hidden.reason, note: review.hidden.note, at: iso(review.hidden.at) },
  };
}

export const auditEntrySchema = z.object({
  id: z.string(),
  at: z.string().describe("ISO 8601 UTC"),
  actor: z.string().describe('Who: "cli" (an import or the operator), "key:<workspace>:<key id>" (the write API) or "console:<workspace>"'),
  action: z.string().describe("created, updated, published, unpublished (a broker); created, hidden, restored (a review)"),
  reviewId: z.string().nullable().describe("Set when the change is to one of the broker's reviews"),
  before: z.record(z.string(), z.unknown()).nullable().describe("The fields that changed, as they were (null when created)"),
  after: z.record(z.string(), z.unknown()).nullable().describe("The same fields as they became"),
  reason: z.string().nullable().describe("Why, as given"),
});

export function toAuditView(entry: AuditEntry): z.infer<typeof auditEntrySchema> {
  return {
    id: String(entry.id),
    at: iso(entry.at),
    actor: entry.actor,
    action: entry.action,
    reviewId: entry.reviewId === null ? null : String(entry.reviewId),
    before: entry.before ?? null,
    after: entry.after ?? null,
    reason: entry.reason === null || entry.reason === "" ? null : entry.reason,
  };
}

/** Who the audit trail says made a change: the API key of a workspace, or a console session. */
export function actorOf(principal: Pick<Principal, "keyId" | "workspaceId">): string {
  return principal.keyId === "console" ? `console:${principal.workspaceId}` : `key:${principal.workspaceId}:${principal.keyId}`;
}

export const brokerIdInput = z.string({ error: said("is required: the broker's id", "est obligatoire : l’id du courtier") }).max(20).describe("The broker's id (its `id`, not its slug)");
export const reviewIdInput = z.string({ error: said("is required: the review's id", "est obligatoire : l’id de l’avis") }).max(20).describe("The review's id");
export const reasonInput = (max: number) => freeText(max).optional().describe("Why: kept on the broker's history");

const idNumber = (id: string) => (/^[1-9]\d{0,14}$/.test(id) ? Number(id) : undefined);

/** The broker with this id in any state, or 404 broker_not_found. */
export async function brokerOrThrow(store: DirectoryWriteStore, id: string): Promise<BrokerWithOffices> {
  const n = idNumber(id);
  const found = n === undefined ? undefined : await store.findBroker(n);
  if (!found) throw new CodedError("broker_not_found", `No broker has the id ${JSON.stringify(id.slice(0, 40))}.`);
  return found;
}

export async function reviewOrThrow(store: DirectoryWriteStore, id: string): Promise<StoredReview> {
  const n = idNumber(id);
  const found = n === undefined ? undefined : await store.findReview(n);
  if (!found) throw new CodedError("review_not_found", `No review has the id ${JSON.stringify(id.slice(0, 40))}.`);
  return found;
}
