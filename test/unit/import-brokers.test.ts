import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { fsaCentroid } from "../../src/domain/geo/fsaCentroids.ts";
import { readBrokerImport } from "../../src/importing/brokerImport.ts";
import { importInputFromPath } from "../../src/importing/byteSource.ts";
import { importInput, readEvents } from "../support/importFiles.ts";

const EXAMPLES = join(import.meta.dir, "../../db/examples");
const THIS_YEAR = new Date().getUTCFullYear();

/** A valid office row of a broker file; tests change a cell or two. */
const ROW: Record<string, string> = {
  externalId: "B-1",
  name: "Assurances Côté & Frères",
  email: "info@cote.ca",
  phone: "(514) 555-0177",
  website: "https://cote.ca",
  teamSize: "11-50",
  insuranceLines: "auto; Home",
  languages: "fr;English",
  address: "1250 boulevard René-Lévesque Ouest",
  city: "Montréal",
  province: "Québec",
  postalCode: "h3b4w8",
};

/** A CSV file of the rows (every cell quoted; the header is the union of their columns). */
function csv(rows: readonly Record<string, string>[]): string {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const line = (cells: readonly string[]) => cells.map((cell) => `"${cell.replaceAll('"', '""')}"`).join(",");
  return [line(columns), ...rows.map((row) => line(columns.map((column) => row[column] ?? "")))].join("\r\n") + "\r\n";
}

const brokersOf = (content: string, name?: string) => readEvents(readBrokerImport(importInput(content, name)));

describe("a broker from CSV rows", () => {
  test("one row: the fields normalised, the office placed at its postal code's area", async () => {
    const { records, errors } = await brokersOf(csv([ROW]));
    expect(errors).toEqual([]);
    const centroid = fsaCentroid("H3B")!;
    expect(records).toEqual([
      {
        line: 2,
        record: {
          externalId: "B-1",
          name: "Assurances Côté & Frères",
          slug: "assurances-cote-freres-montreal",
          slugGenerated: true,
          email: "info@cote.ca",
          phone: "+15145550177",
          website: "https://cote.ca",
          description: "",
          foundingYear: null,
          teamSize: "11-50",
          isVerified: false,
          published: true,
          licenseNumber: null,
          insuranceLines: ["Auto", "Home"],
          specialties: [],
          languages: ["French", "English"],
          locations: [
            { address: "1250 boulevard René-Lévesque Ouest", city: "Montréal", province: "QC", postalCode: "H3B 4W8", phone: null, isPrimary: true, latitude: centroid.lat, longitude: centroid.lng },
          ],
        },
      },
    ]);
  });

  test("offices: consecutive rows with one externalId, the broker's fields from the first, the marked one primary", async () => {
    const rows: Record<string, string>[] = [
      { ...ROW, isPrimary: "false" },
      { externalId: "B-1", name: "ignored", teamSize: "500+", address: "1 Yonge Street", city: "Toronto", province: "ON", postalCode: "M5E 1W7", isPrimary: "TRUE", latitude: "43.6426", longitude: "-79.3871" },
      { externalId: "B-1", address: "900 boulevard René-Lévesque Est", city: "Québec", province: "qc", postalCode: "G1R 2B5" },
      { ...ROW, externalId: "B-2", name: "Other" },
    ];
    const { records, errors } = await brokersOf(csv(rows));
    expect(errors).toEqual([]);
    expect(records.map((r) => r.line)).toEqual([2, 5]);
    const broker = records[0]!.record;
    expect(broker).toMatchObject({ name: "Assurances Côté & Frères", teamSize: "11-50", slug: "assurances-cote-freres-toronto" });
    expect(broker.locations.map((o) => [o.city, o.isPrimary, o.latitude, o.longitude])).toEqual([
      ["Montréal", false, fsaCentroid("H3B")!.lat, fsaCentroid("H3B")!.lng],
      ["Toronto", true, 43.6426, -79.3871],
      ["Québec", false, fsaCentroid("G1R")!.lat, fsaCentroid("G1R")!.lng],
    ]);
  });

  test("keys: externalId, else the slug given, else the slug made from name and city, the same on every import", async () => {
    const rows: Record<string, string>[] = [
      { ...ROW, externalId: "", slug: "cote-freres" },
      { externalId: "", slug: "cote-freres", address: "1 Yonge Street", city: "Toronto", province: "ON", postalCode: "M5E 1W7" },
      { ...ROW, externalId: "" },
      { ...ROW, externalId: "", city: "Québec", postalCode: "G1R 2B5" },
    ];
    const first = await brokersOf(csv(rows));
    const again = await brokersOf(csv(rows));
    expect(first.records.map((r) => [r.line, r.record.slug, r.record.slugGenerated, r.record.locations.length])).toEqual([
      [2, "cote-freres", false, 2],
      [4, "assurances-cote-freres-montreal", true, 1],
      [5, "assurances-cote-freres-quebec", true, 1],
    ]);
    expect(again.records).toEqual(first.records);
  });
});

describe("each bad row is reported with its line, its column and what to do", () => {
  const cases: [string, Record<string, string>, string][] = [
    ["a postal code of another province", { province: "QC", postalCode: "M5V 3L9" }, 'line 2, postalCode: "M5V 3L9" is in Ontario, the row says QC'],
    ["a postal code that is not one", { postalCode: "12345" }, 'line 2, postalCode: must be a Canadian postal code like A1A 1A1 (letter digit letter, digit letter digit; the space is optional) (got "12345")'],
    ["an area our postal data lacks, without coordinates", { city: "Ottawa", province: "ON", postalCode: "K0C 1A0" }, 'line 2, postalCode: "K0C 1A0": the area K0C is not in our postal-code data; check the code, or give latitude and longitude'],
    ["a province that is not one", { province: "Ontaria" }, 'line 2, province: "Ontaria" is not a Canadian province or territory. Use a two-letter code (AB, BC, MB, NB, NL, NS, NT, NU, ON, PE, QC, SK, YT), the English name (e.g. Ontario, British Columbia) or the French name (e.g. Québec, Colombie-Britannique); case and accents are ignored.'],
    ["a missing name", { name: "" }, "line 2, name: is required"],
    ["a missing address", { address: " " }, "line 2, address: is required"],
    ["a team size that is not a band", { teamSize: "10-50" }, 'line 2, teamSize: must be one of 1-10, 11-50, 51-200, 201-500, 500+ (got "10-50")'],
    ["a boolean that is not true or false", { isVerified: "yes" }, 'line 2, isVerified: must be true or false (got "yes")'],
    ["a founding year with a letter in it", { foundingYear: "19O8" }, `line 2, foundingYear: must be a whole number from 1800 to ${THIS_YEAR} (got "19O8")`],
    ["an e-mail address without a domain", { email: "info@" }, 'line 2, email: must be an e-mail address like info@example.ca (got "info@")'],
    ["a phone number too short", { phone: "555-0177" }, 'line 2, phone: must have 10 digits (area code and number), optionally preceded by 1 or +1, e.g. (416) 555-0199 or +1 416 555 0199 (got "555-0177")'],
    ["a website without its scheme", { website: "www.cote.ca" }, 'line 2, website: must be a web address starting with https:// or http:// (got "www.cote.ca")'],
    ["an insurance line we do not know", { insuranceLines: "Auto;Boats" }, 'line 2, insuranceLines: "Boats" is not an insurance line we know: use Auto, Home, Tenant, Condo, Commercial, Life, Travel, Farm, Marine, Pet, Mortgage, Real Estate (case-insensitive)'],
    ["a latitude without its longitude", { latitude: "45.5" }, "line 2, longitude: is required with the other coordinate: give both or neither"],
    ["a slug with capitals and spaces", { slug: "Cote Freres" }, 'line 2, slug: must be a slug like maple-leaf-insurance (lower-case letters and digits joined by single hyphens) (got "Cote Freres")'],
    ["a name in a script that makes no slug", { name: "保险", city: "—" }, "line 2, slug: is required: the name and city have no letters or digits to make one from"],
    ["a control character in a name", { name: "Côté\u001b[2J" }, "line 2, name: must be one line of text without control characters (line breaks, tabs, escape sequences, bidirectional overrides)"],
  ];
  for (const [what, change, message] of cases) {
    test(what, async () => {
      const { records, errors } = await brokersOf(csv([{ ...ROW, ...change }, { ...ROW, externalId: "B-2" }]));
      expect(errors).toEqual([message]);
      expect(records.map((r) => r.line)).toEqual([3]); // the bad row never stops the good one
    });
  }

  test("coordinates swapped", async () => {
    expect((await brokersOf(csv([{ ...ROW, latitude: "-73.5", longitude: "45.5" }]))).errors).toEqual([
      "line 2, latitude: must be a number from 41 to 84 (Canada's latitudes) (got -73.5)",
      "line 2, longitude: must be a number from -142 to -52 (Canada's longitudes; west is negative) (got 45.5)",
    ]);
  });

  test("every problem of a row at once; an office's on the office's own line", async () => {
    const rows: Record<string, string>[] = [
      { ...ROW, email: "nope", isPrimary: "true" },
      { externalId: "B-1", address: "", city: "Toronto", province: "ON", postalCode: "M5E 1W7", isPrimary: "true" },
    ];
    const { records, errors } = await brokersOf(csv(rows));
    expect(records).toEqual([]);
    expect(errors).toEqual([
      'line 2, email: must be an e-mail address like info@example.ca (got "nope")',
      "line 3, address: is required",
    ]);
  });

  test("two primary offices", async () => {
    const rows: Record<string, string>[] = [
      { ...ROW, isPrimary: "true" },
      { externalId: "B-1", address: "1 Yonge Street", city: "Toronto", province: "ON", postalCode: "M5E 1W7", isPrimary: "true" },
    ];
    expect((await brokersOf(csv(rows))).errors).toEqual(["line 3, isPrimary: another office of this broker is already primary: a broker has one primary office"]);
  });

  test("a row with more cells than the header", async () => {
    const { records, errors } = await brokersOf(`name,address,city,province,postalCode\r\nA,1 Main St, Suite 2,Toronto,ON,M5E 1W7\r\nB,2 Main St,Toronto,ON,M5E 1W7\r\n`);
    expect(errors).toEqual(["line 2: has 6 cells but the header has 5: a cell that holds the delimiter (,) must be in double quotes"]);
    expect(records.map((r) => r.record.name)).toEqual(["B"]);
  });
});

describe("a key given twice in one file: the last wins, reported", () => {
  test("CSV: a broker's rows apart from each other", async () => {
    const rows: Record<string, string>[] = [ROW, { ...ROW, externalId: "B-2" }, { ...ROW, name: "Côté Renamed" }];
    const { records, duplicates } = await brokersOf(csv(rows));
    expect(records.map((r) => [r.line, r.record.name])).toEqual([[2, "Assurances Côté & Frères"], [3, "Assurances Côté & Frères"], [4, "Côté Renamed"]]);
    expect(duplicates).toEqual(['line 4, externalId: "B-1" was also on line 2: this broker replaces that one (the last wins); a broker\'s rows must be next to each other']);
  });

  test("NDJSON: the same externalId, or the same slug, on two lines", async () => {
    const broker = { externalId: "B-1", name: "Côté", locations: [{ address: "1 rue X", city: "Montréal", province: "QC", postalCode: "H3B 4W8" }] };
    const bySlug = { ...broker, externalId: undefined, slug: "cote" };
    const lines = [broker, bySlug, broker, bySlug].map((b) => JSON.stringify(b)).join("\n");
    const { records, duplicates } = await brokersOf(lines);
    expect(records).toHaveLength(4);
    expect(duplicates).toEqual([
      'line 3, externalId: "B-1" was also on line 1: this broker replaces that one (the last wins)',
      'line 4, slug: "cote" was also on line 2: this broker replaces that one (the last wins)',
    ]);
  });
});

describe("a broker from NDJSON: the detail shape with locations as an array", () => {
  const office = { address: "1 Yonge Street", city: "Toronto", province: "Ontario", postalCode: "M5E 1W7", isPrimary: true };
  const detail = {
    id: "92",
    externalId: "B-9",
    name: "Bay Street Brokers",
    slug: "bay-street-brokers",
    rating: { averageRating: 4.5, totalReviews: 2 },
    reviewCount: 2,
    province: "ON",
    insuranceLines: ["Commercial"],
    licenseNumber: null,
    locations: [office, { ...office, id: "7", isPrimary: false, phone: "416 555 0100" }],
  };

  test("the fields the server computes (id, rating, …) are ignored; an office may have its own phone", async () => {
    const { records, errors } = await brokersOf(JSON.stringify(detail), "brokers.ndjson");
    expect(errors).toEqual([]);
    expect(records[0]!.record).toMatchObject({ slug: "bay-street-brokers", licenseNumber: null, locations: [{ province: "ON", phone: null }, { phone: "+14165550100" }] });
  });

  test("errors name the path in the record; unknown fields are refused by name", async () => {
    const bad = { ...detail, foundingYear: "1990", locations: [office, { ...office, isPrimary: false, postalCode: "H3B 4W8" }], fax: "none" };
    const { errors } = await brokersOf(JSON.stringify(bad));
    expect(errors).toEqual([
      `line 1, foundingYear: must be a whole number from 1800 to ${THIS_YEAR} (got "1990")`,
      'line 1, locations[1].postalCode: "H3B 4W8" is in Quebec, the row says ON',
      'line 1: "fax" is not a field of a broker: the fields are externalId, name, slug, email, phone, website, description, foundingYear, teamSize, isVerified, published, licenseNumber, insuranceLines, specialties, languages, locations',
    ]);
  });
});

test("the example file imports all but its two deliberately bad rows", async () => {
  const { records, errors, duplicates } = await readEvents(readBrokerImport(importInputFromPath(join(EXAMPLES, "brokers.csv"))));
  expect(errors).toEqual([
    'line 24, postalCode: "M5V 3L9" is in Ontario, the row says QC',
    'line 26, teamSize: must be one of 1-10, 11-50, 51-200, 201-500, 500+ (got "10-50")',
  ]);
  expect(duplicates).toEqual([]);
  expect(records).toHaveLength(18);
  const provinces = new Set(records.flatMap((r) => r.record.locations.map((o) => o.province)));
  expect([...provinces].sort()).toEqual(["AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT"]);
  expect(records.find((r) => r.record.externalId === "CRM-1001")!.record.locations).toHaveLength(3);
});
