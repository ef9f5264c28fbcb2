import type { DirectoryDb } from "../sqlite/database.ts";
import type { DetailOffice, DetailRow } from "./detailRow.ts";
import { TextColumns } from "./textColumns.ts";
import { fileBackedArrays, indexFilesDirectoryOf } from "./fileBackedBytes.ts";
import { utf8Bytes } from "./utf8Bytes.ts";
import { DistinctValues } from "./distinctValues.ts";
import { rowTicks } from "./youngCollections.ts";

/** A rank's contact fields and an office's text fields, in the order TextColumns keeps them. */
const EMAIL = 0;
const PHONE = 1;
const WEBSITE = 2;
const LICENSE = 3;
const ADDRESS = 0;
const CITY = 1;
const PROVINCE = 2;
const POSTAL_CODE = 3;
const OFFICE_PHONE = 4;
/** founding_year is nullable; no year is this far out of range. */
const NO_YEAR = -0x80000000;

/** A published broker's columns as the load reads them. */
interface BrokerColumns {
  id: number;
  email: string | null;
  phone: string | null;
  website: string | null;
  licenseNumber: string | null;
  foundingYear: number | null;
  teamSize: string;
  createdAt: number;
  updatedAt: number;
  insuranceLines: string;
  specialties: string;
  languages: string;
}
/** An office's columns as the load reads them. */
interface OfficeColumns {
  brokerId: number;
  id: number;
  address: string;
  city: string;
  province: string;
  postalCode: string;
  phone: string | null;
  latitude: number | null;
  longitude: number | null;
  isPrimary: number;
}

/** What the list text and the search attributes hold of a rank, for the detail's row. */
export type DetailBase = Pick<
  DetailRow,
  "id" | "name" | "slug" | "description" | "province" | "city" | "averageRating" | "reviewCount" | "isVerified" | "rating1" | "rating2" | "rating3" | "rating4" | "rating5"
>;

/**
 * The rest of a published broker's detail, beside the search attributes (which hold its list
 * text and ratings), so a detail for any of 100,000 brokers is answered without a query. A
 * detail miss spread over 20,000 brokers spent a third of its CPU reading SQLite (the manual's
 * performance page, "Where a miss's microseconds go").
 *
 * About 28 MB at 100,000 brokers: text as UTF-8 in TextColumns buffers, numbers in typed arrays,
 * lists and team sizes shared by content (a few thousand distinct lists). Rows are kept in id order, the order the
 * load reads them one at a time (iterate, not all rows at once, so the load's garbage stays
 * small). The values read back are exactly what BrokerLookups.detail reads from SQLite
 * (test/http/detail-from-memory.test.ts compares them for every broker).
 */
export class DetailColumns {
  /** Each rank's row here (rows are in id order, ranks alphabetical). */
  private rowOfRank: Int32Array;
  private readonly contact: TextColumns;
  private foundingYear: Int32Array;
  /** Index into `teamSizes` of each row's team size. */
  private teamSize: Int32Array;
  private readonly teamSizes = new DistinctValues((text) => text);
  private createdAt: Float64Array;
  private updatedAt: Float64Array;
  /** Index into `lists` of each row's insurance lines, specialties and languages (3r, 3r + 1, 3r + 2). */
  private listOf: Int32Array;
  private readonly lists = new DistinctValues((json) => JSON.parse(json) as string[]);
  /** Row r's offices are slots officeStart[r] … officeStart[r + 1]), primary offices first, then by id. */
  private officeStart: Int32Array;
  private readonly officeText: TextColumns;
  private officeId: Float64Array;
  private officeLat: Float64Array;
  private officeLng: Float64Array;
  private officePrimary: Uint8Array;

  private constructor(n: number, offices: number, contactBytes: number, officeBytes: number) {
    this.rowOfRank = new Int32Array(n).fill(-1);
    this.contact = new TextColumns(n, 4, contactBytes);
    this.foundingYear = new Int32Array(n).fill(NO_YEAR);
    this.teamSize = new Int32Array(n);
    this.createdAt = new Float64Array(n);
    this.updatedAt = new Float64Array(n);
    this.listOf = new Int32Array(3 * n);
    this.officeStart = new Int32Array(n + 1);
    this.officeText = new TextColumns(offices, 5, officeBytes);
    this.officeId = new Float64Array(offices);
    this.officeLat = new Float64Array(offices);
    this.officeLng = new Float64Array(offices);
    this.officePrimary = new Uint8Array(offices);
  }

  /**
   * Reads the published brokers' detail columns, then their offices, one row at a time
   * (`rankOf`: a broker id's rank, -1 when it is not published; `n`: the number of ranks).
   *
   * `collectYoung`, when given, runs every 4,096 rows (see youngCollections.ts).
   */
  static load(db: DirectoryDb, rankOf: (id: number) => number, n: number, collectYoung?: () => void): DetailColumns {
    const client = db.$client;
    // Offices of unpublished brokers are counted too: a few slots to spare, never too few.
    const offices = client.query<{ n: number }, []>("SELECT count(*) AS n FROM broker_locations").get()?.n ?? 0;
    // Text of unpublished brokers' offices is counted too: a little room to spare, never too little.
    const columns = new DetailColumns(
      n,
      offices,
      utf8Bytes(db, "brokers WHERE published = 1", ["email", "phone", "website", "license_number"]),
      utf8Bytes(db, "broker_locations", ["address", "city", "province", "postal_code", "phone"]),
    );
    const brokers = client.query<BrokerColumns, []>(
      "SELECT id, email, phone, website, license_number AS licenseNumber, founding_year AS foundingYear, team_size AS teamSize, " +
        "created_at AS createdAt, updated_at AS updatedAt, insurance_lines AS insuranceLines, specialties, languages " +
        "FROM brokers NOT INDEXED WHERE published = 1 ORDER BY id",
    );
    const tick = rowTicks(collectYoung);
    let row = 0;
    for (const broker of brokers.iterate()) {
      tick();
      const rank = rankOf(broker.id);
      if (rank < 0) continue;
      columns.rowOfRank[rank] = row;
      columns.contact.set(row, [broker.email, broker.phone, broker.website, broker.licenseNumber]);
      columns.foundingYear[row] = broker.foundingYear ?? NO_YEAR;
      columns.teamSize[row] = columns.teamSizes.idOf(broker.teamSize);
      columns.createdAt[row] = broker.createdAt;
      columns.updatedAt[row] = broker.updatedAt;
      columns.listOf[3 * row] = columns.lists.idOf(broker.insuranceLines);
      columns.listOf[3 * row + 1] = columns.lists.idOf(broker.specialties);
      columns.listOf[3 * row + 2] = columns.lists.idOf(broker.languages);
      row++;
    }
    columns.contact.seal(indexFilesDirectoryOf(db));
    columns.lists.forgetTexts();
    columns.teamSizes.forgetTexts();
    columns.loadOffices(db, rankOf, collectYoung);
    columns.mapNumbers(indexFilesDirectoryOf(db));
    return columns;
  }

  /** The detail's row: `base` (from the list text and attributes) with this rank's columns. */
  row(rank: number, base: DetailBase): DetailRow {
    const row = this.rowOfRank[rank]!;
    const at = 3 * row;
    const year = this.foundingYear[row]!;
    const contact = this.contact.row(row);
    return {
      ...base,
      email: contact[EMAIL] ?? null,
      phone: contact[PHONE] ?? null,
      website: contact[WEBSITE] ?? null,
      foundingYear: year === NO_YEAR ? null : year,
      teamSize: this.teamSizes.value(this.teamSize[row]!),
      licenseNumber: contact[LICENSE] ?? null,
      // Copies: the lists are shared by every broker with the same ones.
      insuranceLines: this.lists.value(this.listOf[at]!).slice(),
      specialties: this.lists.value(this.listOf[at + 1]!).slice(),
      languages: this.lists.value(this.listOf[at + 2]!).slice(),
      createdAt: this.createdAt[row]!,
      updatedAt: this.updatedAt[row]!,
    };
  }

  /** This rank's offices, primary first, then by id (as BrokerLookups.detail orders them). */
  offices(rank: number): DetailOffice[] {
    const row = this.rowOfRank[rank]!;
    const text = this.officeText;
    const offices: DetailOffice[] = [];
    for (let slot = this.officeStart[row]!; slot < this.officeStart[row + 1]!; slot++) {
      const latitude = this.officeLat[slot]!;
      const longitude = this.officeLng[slot]!;
      const texts = text.row(slot);
      offices.push({
        id: this.officeId[slot]!,
        address: texts[ADDRESS]!,
        city: texts[CITY]!,
        province: texts[PROVINCE]!,
        postalCode: texts[POSTAL_CODE]!,
        phone: texts[OFFICE_PHONE] ?? null,
        // SQLite stores no NaN (it reads back as NULL): NaN here only ever stands for null.
        latitude: Number.isNaN(latitude) ? null : latitude,
        longitude: Number.isNaN(longitude) ? null : longitude,
        isPrimary: this.officePrimary[slot] === 1,
      });
    }
    return offices;
  }

  /** Approximate bytes held (for the memory accounting of the attributes). */
  bytes(): number {
    const arrays = [this.rowOfRank, this.foundingYear, this.teamSize, this.createdAt, this.updatedAt, this.listOf, this.officeStart, this.officeId, this.officeLat, this.officeLng, this.officePrimary];
    return arrays.reduce((sum, a) => sum + a.byteLength, this.contact.bytes() + this.officeText.bytes());
  }

  /**
   * Offices in broker order (by broker, then id: the broker_locations_broker index's order),
   * each broker's primary offices first. Brokers come in id order, as their rows here do.
   */
  private loadOffices(db: DirectoryDb, rankOf: (id: number) => number, collectYoung: (() => void) | undefined): void {
    const offices = db.$client.query<OfficeColumns, []>(
      "SELECT broker_id AS brokerId, id, address, city, province, postal_code AS postalCode, phone, latitude, longitude, is_primary AS isPrimary " +
        "FROM broker_locations ORDER BY broker_id, id",
    );
    let slot = 0;
    let row = -1;
    let group: OfficeColumns[] = [];
    const writeGroup = () => {
      for (const primary of [1, 0]) for (const office of group) if (office.isPrimary === primary) this.writeOffice(slot++, office);
      group = [];
    };
    const tick = rowTicks(collectYoung);
    for (const office of offices.iterate()) {
      tick();
      const rank = rankOf(office.brokerId);
      if (rank < 0) continue;
      const officeRow = this.rowOfRank[rank]!;
      if (officeRow !== row) {
        writeGroup();
        // This row's range starts here, and so do the empty ranges of the rows before it without offices.
        for (let r = row + 1; r <= officeRow; r++) this.officeStart[r] = slot;
        row = officeRow;
      }
      group.push(office);
    }
    writeGroup();
    for (let r = row + 1; r < this.officeStart.length; r++) this.officeStart[r] = slot;
    this.officeText.seal(indexFilesDirectoryOf(db));
  }

  /** The arrays of numbers, like the text, move into a mapped file (see fileBackedArrays), if they can. */
  private mapNumbers(directory: string | undefined): void {
    const inMemory = [this.createdAt, this.updatedAt, this.officeId, this.officeLat, this.officeLng, this.rowOfRank, this.foundingYear, this.teamSize, this.listOf, this.officeStart, this.officePrimary] as const;
    [this.createdAt, this.updatedAt, this.officeId, this.officeLat, this.officeLng, this.rowOfRank, this.foundingYear, this.teamSize, this.listOf, this.officeStart, this.officePrimary] = fileBackedArrays(inMemory, directory) ?? inMemory;
  }

  private writeOffice(slot: number, office: OfficeColumns): void {
    this.officeText.set(slot, [office.address, office.city, office.province, office.postalCode, office.phone]);
    this.officeId[slot] = office.id;
    this.officeLat[slot] = office.latitude ?? Number.NaN;
    this.officeLng[slot] = office.longitude ?? Number.NaN;
    this.officePrimary[slot] = office.isPrimary;
  }
}
