import canada from "../domain/canada.json" with { type: "json" };
import type { brokerLocations, brokers, reviews } from "../../db/schema.ts";
import { INSURANCE_LINES } from "../domain/insuranceLines.ts";
import { foldText, slugify } from "../domain/text.ts";
import { isVerifiedFor, teamSizeFor } from "./profileBands.ts";
import { SeededRandom } from "./random.ts";
import * as words from "./vocabulary.ts";

export type BrokerRow = typeof brokers.$inferInsert & { id: number };
export type LocationRow = typeof brokerLocations.$inferInsert;
export type ReviewRow = typeof reviews.$inferInsert;

export interface GeneratedBroker {
  broker: BrokerRow;
  locations: LocationRow[];
  reviews: ReviewRow[];
}

export interface DirectoryOptions {
  brokers: number;
  reviewsPerBroker: number;
  seed: number;
}

type CanadaProvince = (typeof canada.provinces)[number];

/** Rough share of brokers per province: the large markets get the most. */
const PROVINCE_WEIGHTS: Record<string, number> = {
  ON: 34, QC: 22, BC: 14, AB: 12, MB: 4, SK: 4, NS: 3, NB: 2.5, NL: 1.5, PE: 1, NT: 0.6, YT: 0.6, NU: 0.5,
};
/** Reviews and creation dates are spread before this fixed instant, so output never depends on today. */
const EPOCH = Date.UTC(2026, 0, 1);
const YEAR_MS = 365 * 24 * 3600 * 1000;
const POSTAL_LETTERS = "ABCEGHJKLMNPRSTVWXYZ";

/**
 * Generates a plausible Canadian directory, deterministically from `seed`. Brokers come out
 * one at a time so that a 100,000-broker seed never holds the whole directory in memory.
 */
export function* generateDirectory(options: DirectoryOptions): Generator<GeneratedBroker> {
  const random = new SeededRandom(options.seed);
  const provinces = canada.provinces;
  const weights = provinces.map((p) => PROVINCE_WEIGHTS[p.code] ?? 1);
  const usedSlugs = new Set<string>();
  let locationId = 1;
  let reviewId = 1;

  for (let id = 1; id <= options.brokers; id++) {
    // Every province and territory gets brokers first, then the market shares take over.
    const province = id <= provinces.length * 2 ? provinces[(id - 1) % provinces.length]! : random.weighted(provinces, weights);
    const french = province.code === "QC" ? random.chance(0.8) : province.code === "NB" && random.chance(0.3);
    const city = random.pick(province.cities);
    const name = brokerName(random, french, city.name);
    const slug = uniqueSlug(slugify(name), usedSlugs, slugify(city.name), id);
    const lines = random.weightedSample(INSURANCE_LINES, words.INSURANCE_LINE_WEIGHTS, random.int(2, 6)).sort(
      (a, b) => INSURANCE_LINES.indexOf(a) - INSURANCE_LINES.indexOf(b),
    );
    const specialties = random.sample(words.SPECIALTIES, random.int(1, 3));
    const languages = french ? ["French", "English"] : random.chance(0.25) ? ["English", "French"] : ["English"];
    if (random.chance(0.3)) languages.push(random.pick(words.EXTRA_LANGUAGES));
    const foundingYear = random.int(1952, 2023);
    const createdAt = EPOCH - random.int(1, 5 * 365) * 24 * 3600 * 1000;

    const locations: LocationRow[] = [location(random, locationId++, id, province, city, true)];
    if (random.chance(0.06)) {
      // A few brokerages have offices in other provinces too.
      for (let extra = random.int(1, 2); extra > 0; extra--) {
        const other = random.chance(0.6) ? random.weighted(provinces, weights) : province;
        locations.push(location(random, locationId++, id, other, random.pick(other.cities), false));
      }
    }

    const licenseNumber = `${province.code}-${String(100000 + ((id * 7919) % 900000))}`;
    const broker: BrokerRow = {
      id,
      slug,
      name,
      sortName: foldText(name),
      description: description(random, french, name, city.name, lines, specialties, foundingYear),
      province: province.code,
      city: city.name,
      phone: phoneFor(random, province.code),
      email: `info@${slug.slice(0, 40)}.ca`,
      website: `https://www.${slug.slice(0, 40)}.ca`,
      licenseNumber,
      foundingYear,
      teamSize: teamSizeFor(id),
      isVerified: isVerifiedFor(id, licenseNumber),
      insuranceLines: lines,
      specialties,
      languages,
      published: id <= provinces.length * 2 || !random.chance(0.06),
      createdAt,
      updatedAt: createdAt,
    };

    const reviewCount = options.reviewsPerBroker === 0 ? 0 : random.int(0, options.reviewsPerBroker * 2);
    const brokerReviews: ReviewRow[] = [];
    for (let r = 0; r < reviewCount; r++) {
      brokerReviews.push(review(random, reviewId++, id, french, lines));
    }
    yield { broker, locations, reviews: brokerReviews };
  }
}

function brokerName(random: SeededRandom, french: boolean, city: string): string {
  if (french) {
    const surname = random.pick(words.SURNAMES_FR);
    return random.pick([
      () => `${random.pick(words.NAME_SUFFIXES_FR)} ${surname}`,
      () => `${surname} & ${random.pick(words.SURNAMES_FR)} ${random.pick(words.NAME_SUFFIXES_FR)}`,
      () => `${random.pick(words.BRAND_WORDS_FR)} ${random.pick(words.NAME_SUFFIXES_FR)}`,
      () => `Assurances ${city} ${surname}`,
    ])();
  }
  const surname = random.pick(words.SURNAMES_EN);
  return random.pick([
    () => `${surname} ${random.pick(words.NAME_SUFFIXES_EN)}`,
    () => `${surname} & ${random.pick(words.SURNAMES_EN)} ${random.pick(words.NAME_SUFFIXES_EN)}`,
    () => `${random.pick(words.BRAND_WORDS)} ${random.pick(words.NAME_SUFFIXES_EN)}`,
    () => `${city} ${random.pick(words.NAME_SUFFIXES_EN)}`,
  ])();
}

function uniqueSlug(base: string, used: Set<string>, city: string, id: number): string {
  for (const candidate of [base, `${base}-${city}`, `${base}-${city}-${id}`]) {
    if (!used.has(candidate)) {
      used.add(candidate);
      return candidate;
    }
  }
  throw new Error(`slug collision for ${base}`);
}

function listWords(items: string[], conjunction: string): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} ${conjunction} ${items.at(-1)}`;
}

function description(
  random: SeededRandom,
  french: boolean,
  name: string,
  city: string,
  lines: string[],
  specialties: string[],
  year: number,
): string {
  if (french) {
    const lignes = listWords(lines.map((l) => words.LINE_FR[l] ?? l.toLowerCase()), "et");
    return random.pick([
      `Cabinet de courtage indépendant à ${city} depuis ${year}. Nous comparons les assureurs pour votre assurance ${lignes}.`,
      `${name} accompagne les familles et les entreprises de ${city} en assurance ${lignes}, avec un service personnalisé en français.`,
    ]);
  }
  const lineText = listWords(lines.map((l) => l.toLowerCase()), "and");
  const focus = specialties[0]?.toLowerCase() ?? "families";
  return random.pick([
    `Independent brokerage serving ${city} since ${year}. We compare carriers for ${lineText} insurance.`,
    `${name} helps households and businesses in ${city} with ${lineText} coverage, with a focus on ${focus}.`,
    `Family-owned broker in ${city} offering ${lineText} insurance from Canada's leading carriers. Known for ${focus}.`,
  ]);
}

function location(
  random: SeededRandom,
  id: number,
  brokerId: number,
  province: CanadaProvince,
  city: CanadaProvince["cities"][number],
  isPrimary: boolean,
): LocationRow {
  const french = province.code === "QC";
  const street = french ? random.pick(words.STREETS_FR) : random.pick(words.STREETS);
  const ldu = `${random.int(0, 9)}${POSTAL_LETTERS[random.int(0, POSTAL_LETTERS.length - 1)]}${random.int(0, 9)}`;
  return {
    id,
    brokerId,
    address: french ? `${random.int(10, 2999)}, ${street}` : `${random.int(10, 2999)} ${street}`,
    city: city.name,
    cityKey: foldText(city.name),
    province: province.code,
    postalCode: `${city.fsa} ${ldu}`,
    phone: phoneFor(random, province.code),
    latitude: Math.round((city.lat + (random.next() - 0.5) * 0.05) * 1e5) / 1e5,
    longitude: Math.round((city.lng + (random.next() - 0.5) * 0.05) * 1e5) / 1e5,
    isPrimary,
  };
}

const AREA_CODES: Record<string, string[]> = {
  AB: ["403", "780", "587"], BC: ["604", "250", "778"], MB: ["204"], NB: ["506"], NL: ["709"], NS: ["902"],
  NT: ["867"], NU: ["867"], ON: ["416", "647", "613", "905", "519"], PE: ["902"], QC: ["514", "418", "450", "819"],
  SK: ["306"], YT: ["867"],
};

function phoneFor(random: SeededRandom, province: string): string {
  return `+1${random.pick(AREA_CODES[province] ?? ["800"])}555${String(random.int(0, 9999)).padStart(4, "0")}`;
}

function review(random: SeededRandom, id: number, brokerId: number, french: boolean, lines: string[]): ReviewRow {
  const rating = random.weighted([5, 4, 3, 2, 1], [46, 30, 12, 7, 5]);
  const first = french ? random.pick(words.FIRST_NAMES_FR) : random.pick(words.FIRST_NAMES_EN);
  const last = french ? random.pick(words.SURNAMES_FR) : random.pick(words.SURNAMES_EN);
  const line = random.pick(lines);
  const bodies = french && random.chance(0.7) ? words.REVIEW_BODIES_FR : words.REVIEW_BODIES;
  return {
    id,
    brokerId,
    authorName: `${first} ${last}`,
    rating,
    title: random.pick(words.REVIEW_TITLES[rating] ?? ["Review"]),
    body: random.pick(bodies[rating] ?? [""]).replace("{line}", french ? (words.LINE_FR[line] ?? line) : line.toLowerCase()),
    published: !random.chance(0.03),
    createdAt: EPOCH - Math.floor(random.next() * 3 * YEAR_MS),
  };
}
