import { CodedError } from "../../schemas/errorCodes.ts";
import type { BrokerDetail } from "../../schemas/broker.ts";
import type { Services } from "../../services.ts";

/** What callers are told when a slug names no published broker (unknown and unpublished alike). */
export function unknownSlugMessage(slug: string): string {
  return `No published broker has the slug ${JSON.stringify(slug.slice(0, 200))}.`;
}

/** The same in French. */
export function unknownSlugMessageFr(slug: string): string {
  return `Aucun courtier publié n’a le slug ${JSON.stringify(slug.slice(0, 200))}.`;
}

/** The published broker with this slug, or NOT_FOUND: the one rule every procedure shares. */
export function publishedBrokerOrThrow(services: Services, slug: string): BrokerDetail {
  const broker = services.brokers.findBySlug(slug);
  if (!broker) throw new CodedError("broker_not_found", unknownSlugMessage(slug));
  return broker;
}
