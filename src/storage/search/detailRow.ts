import type { brokerLocations, brokers } from "../../../db/schema.ts";

type BrokerRow = typeof brokers.$inferSelect;

/**
 * The columns a broker's detail is made of, typed as drizzle reads them (db/schema.ts): what
 * BrokerLookups reads from SQLite and DetailColumns from memory, the same values either way.
 */
export type DetailRow = Pick<
  BrokerRow,
  | "id" | "name" | "slug" | "description" | "province" | "city" | "averageRating" | "reviewCount" | "isVerified"
  | "email" | "phone" | "website" | "foundingYear" | "teamSize" | "licenseNumber"
  | "rating1" | "rating2" | "rating3" | "rating4" | "rating5"
  | "insuranceLines" | "specialties" | "languages" | "createdAt" | "updatedAt"
>;
export type LocationRow = typeof brokerLocations.$inferSelect;
/** The columns of an office a broker's detail shows (the index holds these, not the keys it does not show). */
export type DetailOffice = Pick<LocationRow, "id" | "address" | "city" | "province" | "postalCode" | "phone" | "latitude" | "longitude" | "isPrimary">;
