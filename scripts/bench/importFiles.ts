/**
 * The files `bench --import` feeds the CLI: the demo generator's directory (src/demo) written as
 * an operator's spreadsheet would be. Brokers as CSV, one row per office (about 6% of brokers
 * have two or three offices, so the multi-office grouping is on the measured path), keyed by
 * their licence number as a regulator's list would be; reviews as NDJSON keyed `r-<n>`, attached
 * by `brokerExternalId`. Written as they are generated: the generator yields one broker at a time.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import { csvRows, UTF8_BOM } from "../../src/domain/csv.ts";
import { BROKER_COLUMNS } from "../../src/importing/importColumns.ts";
import { generateDirectory, type GeneratedBroker } from "../../src/demo/generateDirectory.ts";

export interface ImportFiles {
  brokersFile: string;
  reviewsFile: string;
  brokers: number;
  /** CSV rows (one per office). */
  brokerRows: number;
  reviews: number;
  brokerBytes: number;
  reviewBytes: number;
}

/** Written in chunks of about this many characters: one write per chunk, not per row. */
const CHUNK = 1 << 20;

/** `reviewsPerBroker` is the generator's mean (0 to twice that a broker): 12 gives about 1.2 million for 100,000. */
export function writeImportFiles(options: { brokers: number; reviewsPerBroker: number; brokersFile: string; reviewsFile: string }): ImportFiles {
  const brokersOut = new ChunkedFile(options.brokersFile);
  const reviewsOut = new ChunkedFile(options.reviewsFile);
  let brokerRows = 0;
  let reviews = 0;
  try {
    brokersOut.write(UTF8_BOM + csvRows([BROKER_COLUMNS.columns]));
    for (const generated of generateDirectory({ brokers: options.brokers, reviewsPerBroker: options.reviewsPerBroker, seed: 42 })) {
      const rows = brokerRowsOf(generated);
      brokerRows += rows.length;
      brokersOut.write(csvRows(rows));
      const externalId = generated.broker.licenseNumber!;
      for (const review of generated.reviews) {
        reviews++;
        const record = {
          externalId: `r-${review.id}`,
          brokerExternalId: externalId,
          rating: review.rating,
          title: review.title,
          content: review.body,
          authorName: review.authorName,
          createdAt: new Date(review.createdAt!).toISOString(),
        };
        reviewsOut.write(`${JSON.stringify(record)}\n`);
      }
    }
  } finally {
    brokersOut.close();
    reviewsOut.close();
  }
  return { ...options, brokerRows, reviews, brokerBytes: brokersOut.bytes, reviewBytes: reviewsOut.bytes };
}

type Cell = string | number | null;

/** One row an office; the broker's fields on its first row only, later rows repeat its key (as `export` writes them). */
function brokerRowsOf({ broker, locations }: GeneratedBroker): Cell[][] {
  const fields: Record<string, Cell> = {
    externalId: broker.licenseNumber!,
    licenseNumber: broker.licenseNumber!,
    name: broker.name,
    slug: broker.slug,
    email: broker.email ?? null,
    phone: broker.phone ?? null,
    website: broker.website ?? null,
    description: broker.description ?? null,
    foundingYear: broker.foundingYear ?? null,
    teamSize: broker.teamSize ?? null,
    isVerified: String(broker.isVerified ?? false),
    published: String(broker.published ?? true),
    insuranceLines: (broker.insuranceLines ?? []).join(";"),
    specialties: (broker.specialties ?? []).join(";"),
    languages: (broker.languages ?? []).join(";"),
  };
  return locations.map((office, index) => {
    const officeFields: Record<string, Cell> = {
      address: office.address,
      city: office.city,
      province: office.province,
      postalCode: office.postalCode,
      isPrimary: String(office.isPrimary ?? false),
      latitude: office.latitude ?? null,
      longitude: office.longitude ?? null,
    };
    return BROKER_COLUMNS.columns.map((column) => {
      if (column in officeFields) return officeFields[column]!;
      if (index > 0 && column !== "externalId") return null;
      return fields[column] ?? null;
    });
  });
}

class ChunkedFile {
  private readonly fd: number;
  private buffer = "";
  bytes = 0;

  constructor(path: string) {
    this.fd = openSync(path, "w");
  }

  write(text: string): void {
    this.buffer += text;
    if (this.buffer.length >= CHUNK) this.flush();
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }

  private flush() {
    if (this.buffer === "") return;
    this.bytes += writeSync(this.fd, this.buffer);
    this.buffer = "";
  }
}
