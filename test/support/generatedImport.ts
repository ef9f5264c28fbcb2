import { createWriteStream } from "node:fs";
import { finished } from "node:stream/promises";

/** The header of a brokers CSV, every column import reads. */
export const BROKERS_CSV_HEADER =
  "externalId,name,slug,email,phone,website,description,foundingYear,teamSize,isVerified,published,licenseNumber,insuranceLines,specialties,languages,address,city,province,postalCode,isPrimary,latitude,longitude";
/** Offices in places our postal-code data knows. */
const PLACES = [
  ["Toronto", "ON", "M5H 3T4"],
  ["Montréal", "QC", "H3B 4W8"],
  ["Vancouver", "BC", "V6B 4N6"],
  ["Calgary", "AB", "T2P 3H9"],
  ["Winnipeg", "MB", "R3B 3K6"],
  ["Halifax", "NS", "B3J 3N4"],
] as const;
const LINES = ["Auto;Home", "Auto;Home;Commercial", "Home;Life", "Auto;Travel;Home;Tenant"];

/**
 * A brokers CSV of `count` brokers (externalId GEN-1 …), every tenth with three offices, as an
 * operator's CRM export might be; `variant` changes every broker's description, so a second file
 * updates them all. Streamed to disk: 100,000 brokers are about 20 MB.
 */
export async function writeBrokersCsv(path: string, count: number, variant = 0): Promise<void> {
  const out = createWriteStream(path);
  out.write(`${BROKERS_CSV_HEADER}\n`);
  for (let i = 1; i <= count; i++) {
    const [city, province, postalCode] = PLACES[i % PLACES.length]!;
    const head = `GEN-${i},Generated Brokerage ${i},generated-brokerage-${i},office${i}@example.ca,416-555-${String(i % 10_000).padStart(4, "0")},https://broker${i}.example.ca,"Brokerage number ${i}, version ${variant}.",${1950 + (i % 70)},11-50,${i % 3 === 0},true,,${LINES[i % LINES.length]},Families,English;French`;
    let rows = `${head},${i} Main Street,${city},${province},${postalCode},true,,\n`;
    if (i % 10 === 0) {
      for (const office of [1, 2]) {
        const [otherCity, otherProvince, otherCode] = PLACES[(i + office) % PLACES.length]!;
        rows += `GEN-${i},,,,,,,,,,,,,,,${office} Branch Road,${otherCity},${otherProvince},${otherCode},false,,\n`;
      }
    }
    if (!out.write(rows)) await new Promise((resolve) => out.once("drain", resolve));
  }
  out.end();
  await finished(out);
}

/** An NDJSON file of `perBroker` reviews for each of the `brokers` generated brokers (externalId RV-<broker>-<n>). */
export async function writeReviewsNdjson(path: string, brokers: number, perBroker: number): Promise<void> {
  const out = createWriteStream(path);
  for (let i = 1; i <= brokers; i++) {
    let lines = "";
    for (let n = 1; n <= perBroker; n++) {
      const review = {
        externalId: `RV-${i}-${n}`,
        brokerExternalId: `GEN-${i}`,
        rating: 1 + ((i + n) % 5),
        title: `Review ${n}`,
        content: `Review ${n} of brokerage ${i}: clear advice and a fair price.`,
        authorName: `Client ${n}`,
        createdAt: new Date(Date.UTC(2024, 0, 1) + (i * 7 + n) * 60_000).toISOString(),
      };
      lines += `${JSON.stringify(review)}\n`;
    }
    if (!out.write(lines)) await new Promise((resolve) => out.once("drain", resolve));
  }
  out.end();
  await finished(out);
}
