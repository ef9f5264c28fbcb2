import { z } from "zod";
import { brokerSlugFor } from "../domain/brokerSlug.ts";
import { fsaCentroid } from "../domain/geo/fsaCentroids.ts";
import { postalCodeBelongsTo } from "../domain/postalCode.ts";
import { provinceOfPostalCode } from "../domain/quotes/postalProvince.ts";
import { provinceByCode } from "../domain/provinces.ts";
import { french, said } from "./frenchMessages.ts";
import * as field from "./recordFields.ts";

/**
 * A broker and a review as a directory file gives them (src/importing/README.md): the spec's
 * field names (2.2, 2.3) plus the operator's keys, validated and normalised (province codes,
 * E.164 phones, A1A 1A1 postal codes, the directory's names for lines and languages), so
 * whoever writes them stores exactly this. Unknown fields are refused, not dropped: a typo
 * must not lose a column.
 */

export const MAX_OFFICES = 50;

/**
 * A strict object's refusals in words: the unknown fields by name, with the ones it takes.
 * `whatFr` is the French of `what` (an unknown field's French is describeIssues's).
 */
const strict = <T extends z.ZodRawShape>(what: string, whatFr: string, shape: T) => {
  const notObject = said(`must be ${what} (a JSON object)`, `doit être ${whatFr} (un objet JSON)`);
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `${issue.keys.map((key) => JSON.stringify(key)).join(", ")} ${issue.keys.length === 1 ? "is not a field" : "are not fields"} of ${what}: the fields are ${Object.keys(shape).join(", ")}`
        : notObject,
  });
};

/** Canada's extent, a little wide: a point outside it is a typo or latitude and longitude swapped. */
const latitude = field.decimal(41, 84, "Canada's latitudes", "les latitudes du Canada");
const longitude = field.decimal(-142, -52, "Canada's longitudes; west is negative", "les longitudes du Canada ; l’ouest est négatif");

const officeFields = strict("an office", "un bureau", {
  address: field.lineText(200),
  city: field.lineText(100),
  province: field.provinceField,
  postalCode: field.postalCodeField,
  isPrimary: field.booleanField.optional(),
  latitude: latitude.optional(),
  longitude: longitude.optional(),
  phone: field.orNull(field.phoneField),
});

/**
 * An office: its postal code must lie in its province, and it gets coordinates, the file's or
 * else its postal code's area centroid (the FSA, the code's first three characters).
 */
export const officeRecordSchema = officeFields.transform((office, ctx) => {
  const { latitude, longitude, ...rest } = office;
  const fail = (path: string, message: string, fr: string) => {
    ctx.addIssue({ code: "custom", path: [path], message, params: french(fr) });
    return z.NEVER;
  };
  if (!postalCodeBelongsTo(office.postalCode, office.province)) {
    const actual = provinceOfPostalCode(office.postalCode);
    const where = actual ? provinceByCode(actual).en : "another province";
    const whereFr = actual ? provinceByCode(actual).fr : "une autre province";
    return fail(
      "postalCode",
      `"${office.postalCode}" is in ${where}, the row says ${office.province}`,
      `« ${office.postalCode} » se trouve dans : ${whereFr} ; la ligne indique ${office.province}`,
    );
  }
  if ((latitude === undefined) !== (longitude === undefined)) {
    return fail(
      latitude === undefined ? "latitude" : "longitude",
      "is required with the other coordinate: give both or neither",
      "est obligatoire avec l’autre coordonnée : donnez les deux ou aucune",
    );
  }
  if (latitude !== undefined && longitude !== undefined) return { ...rest, isPrimary: office.isPrimary ?? false, latitude, longitude };
  const fsa = office.postalCode.slice(0, 3);
  const centroid = fsaCentroid(fsa);
  if (!centroid) {
    return fail(
      "postalCode",
      `"${office.postalCode}": the area ${fsa} is not in our postal-code data; check the code, or give latitude and longitude`,
      `« ${office.postalCode} » : la région ${fsa} n’est pas dans nos données de codes postaux ; vérifiez le code ou donnez la latitude et la longitude`,
    );
  }
  return { ...rest, isPrimary: office.isPrimary ?? false, latitude: centroid.lat, longitude: centroid.lng };
});
export type OfficeRecord = z.infer<typeof officeRecordSchema>;

const brokerFields = strict("a broker", "un courtier", {
  externalId: field.orNull(field.externalId),
  name: field.lineText(200),
  slug: field.slugField.optional(),
  email: field.orNull(field.emailField),
  phone: field.orNull(field.phoneField),
  website: field.orNull(field.websiteField),
  description: field.freeText(5_000).optional().transform((text) => text ?? ""),
  foundingYear: field.orNull(field.foundingYearField),
  teamSize: field.teamSizeField.optional().transform((size) => size ?? "1-10"),
  isVerified: field.booleanField.optional().transform((verified) => verified ?? false),
  published: field.booleanField.optional().transform((published) => published ?? true),
  licenseNumber: field.orNull(field.lineText(64)),
  insuranceLines: field.insuranceLinesField.optional().transform((lines) => lines ?? []),
  specialties: field.specialtiesField.optional().transform((list) => list ?? []),
  languages: field.languagesField.optional().transform((list) => list ?? []),
  locations: z
    .array(officeRecordSchema, { error: said("is required: the broker's offices, at least one", "est obligatoire : les bureaux du courtier, au moins un") })
    .min(1, { error: said("is required: the broker's offices, at least one", "est obligatoire : les bureaux du courtier, au moins un") })
    .max(MAX_OFFICES, { error: said(`must have at most ${MAX_OFFICES} offices`, `doit compter au plus ${MAX_OFFICES} bureaux`) }),
});

/**
 * A broker: one primary office (the one marked, else the first), and a slug (the file's, else
 * made from its name and primary city; `slugGenerated` tells a writer it may keep the slug a
 * broker already has rather than move its address).
 */
export const brokerRecordSchema = brokerFields.transform((broker, ctx) => brokerRecordOf(broker, ctx));

/** The fields of a broker record, as a schema that takes them (the write API's, issue 27 section 2). */
export const BROKER_RECORD_SHAPE = brokerFields.shape;
export { strict as strictRecordObject };

/** A broker's validated fields as its record (the rules above), or z.NEVER with the issues added to `ctx`. */
export function brokerRecordOf(broker: z.output<typeof brokerFields>, ctx: z.RefinementCtx) {
  const marked = broker.locations.flatMap((office, index) => (office.isPrimary ? [index] : []));
  for (const index of marked.slice(1)) {
    ctx.addIssue({
      code: "custom",
      path: ["locations", index, "isPrimary"],
      message: said("another office of this broker is already primary: a broker has one primary office", "un autre bureau de ce courtier est déjà le principal : un courtier a un seul bureau principal"),
    });
  }
  const primary = marked[0] ?? 0;
  const locations = broker.locations.map((office, index) => ({ ...office, isPrimary: index === primary }));
  const slug = broker.slug ?? brokerSlugFor(broker.name, locations[primary]!.city);
  if (slug === "") {
    ctx.addIssue({
      code: "custom",
      path: ["slug"],
      message: said("is required: the name and city have no letters or digits to make one from", "est obligatoire : le nom et la ville n’ont ni lettres ni chiffres pour en former un"),
    });
  }
  if (marked.length > 1 || slug === "") return z.NEVER;
  return { ...broker, slug, slugGenerated: broker.slug === undefined, locations };
}
export type BrokerRecord = z.infer<typeof brokerRecordSchema>;

/** A review, attached to its broker by the broker's external id or its slug (one of the two). */
const reviewFields = strict("a review", "un avis", {
  externalId: field.externalId,
  brokerExternalId: field.externalId.optional(),
  brokerSlug: field.slugField.optional(),
  rating: field.wholeNumber(1, 5),
  title: field.freeText(200).optional().transform((title) => title ?? ""),
  content: field.freeText(10_000).min(1, { error: said("is required", "est obligatoire") }),
  authorName: field.lineText(100),
  createdAt: field.pastTimestampField,
});

export const reviewRecordSchema = reviewFields.transform((review, ctx) => {
  const { brokerExternalId, brokerSlug, ...rest } = review;
  if ((brokerExternalId === undefined) === (brokerSlug === undefined)) {
    const message =
      brokerExternalId === undefined
        ? said("is required: the broker's externalId, or brokerSlug", "est obligatoire : l’externalId du courtier, ou brokerSlug")
        : said("must not be given with brokerSlug: name the broker one way", "ne doit pas être donné avec brokerSlug : désignez le courtier d’une seule façon");
    ctx.addIssue({ code: "custom", path: ["brokerExternalId"], message });
    return z.NEVER;
  }
  return { ...rest, brokerExternalId: brokerExternalId ?? null, brokerSlug: brokerSlug ?? null };
});
export type ReviewRecord = z.infer<typeof reviewRecordSchema>;

export const BROKER_FIELDS = Object.keys(brokerFields.shape);
export const OFFICE_FIELDS = Object.keys(officeFields.shape);
export const REVIEW_FIELDS = Object.keys(reviewFields.shape);
