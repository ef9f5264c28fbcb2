import { capBands, unitVector, type LatLng } from "../../domain/geo/distance.ts";

/**
 * Cell sizes tried, finest first: the finest whose grid over the offices' rectangle has at most
 * MAX_CELLS cells is used. Canada's offices span about 41° × 89°: a tenth of a degree (11 km ×
 * 8 km at Toronto) gives 365,000 cells (1.5 MB of offsets), so a 5 km search in a downtown
 * reads a few small cells rather than one quarter-degree cell holding a whole city's offices.
 * Offices spread over the globe fall back to coarser cells (at worst 721 × 1441 quarter degrees).
 */
const CELL_CHOICES = [0.1, 0.25, 0.5, 1];
const MAX_CELLS = 1 << 20;

/**
 * Offices with coordinates, copied in grid order: by cell, row by row (latitude), each row west
 * to east, and within a cell in slot order. The cells of one row that a search's circle reaches
 * are then one contiguous span, so a near search reads a few runs of adjacent memory instead of
 * looking cells up one by one. Each office is kept as a unit vector (x, y, z) with its rank: the search's
 * distance test is a squared chord, no trigonometry per office (see nearSet).
 */
export class OfficeGrid {
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly z: Float64Array;
  readonly rank: Int32Array;
  private readonly cellDegrees: number;
  private readonly start: Int32Array;
  private readonly firstRow: number;
  private readonly rows: number;
  private readonly firstColumn: number;
  private readonly columns: number;

  constructor(officeLat: Float64Array, officeLng: Float64Array, officeRank: Int32Array) {
    const slots: number[] = [];
    let [minLat, maxLat, minLng, maxLng] = [Infinity, -Infinity, Infinity, -Infinity];
    for (let slot = 0; slot < officeLat.length; slot++) {
      const [lat, lng] = [officeLat[slot]!, officeLng[slot]!];
      if (Number.isNaN(lat) || Number.isNaN(lng)) continue;
      slots.push(slot);
      [minLat, maxLat, minLng, maxLng] = [Math.min(minLat, lat), Math.max(maxLat, lat), Math.min(minLng, lng), Math.max(maxLng, lng)];
    }
    const cellsAt = (degrees: number) =>
      (cellIndex(maxLat, 90, degrees) - cellIndex(minLat, 90, degrees) + 1) * (cellIndex(maxLng, 180, degrees) - cellIndex(minLng, 180, degrees) + 1);
    this.cellDegrees = slots.length ? (CELL_CHOICES.find((degrees) => cellsAt(degrees) <= MAX_CELLS) ?? CELL_CHOICES.at(-1)!) : 1;
    const row = (lat: number) => cellIndex(lat, 90, this.cellDegrees);
    const column = (lng: number) => cellIndex(lng, 180, this.cellDegrees);
    this.firstRow = slots.length ? row(minLat) : 0;
    this.rows = slots.length ? row(maxLat) - this.firstRow + 1 : 0;
    this.firstColumn = slots.length ? column(minLng) : 0;
    this.columns = slots.length ? column(maxLng) - this.firstColumn + 1 : 0;
    const cellOf = (slot: number) => (row(officeLat[slot]!) - this.firstRow) * this.columns + (column(officeLng[slot]!) - this.firstColumn);
    // A counting sort by cell, stable, so each cell keeps its offices in slot order.
    this.start = new Int32Array(this.rows * this.columns + 1);
    for (const slot of slots) this.start[cellOf(slot) + 1]!++;
    for (let cell = 0; cell < this.rows * this.columns; cell++) this.start[cell + 1]! += this.start[cell]!;
    const next = this.start.slice(0, this.rows * this.columns);
    this.x = new Float64Array(slots.length);
    this.y = new Float64Array(slots.length);
    this.z = new Float64Array(slots.length);
    this.rank = new Int32Array(slots.length);
    for (const slot of slots) {
      const at = next[cellOf(slot)]!++;
      [this.x[at], this.y[at], this.z[at]] = unitVector(officeLat[slot]!, officeLng[slot]!);
      this.rank[at] = officeRank[slot]!;
    }
  }

  /**
   * The spans [from, to) of grid-ordered offices in the cells the circle of `radiusKm` around
   * `centre` can reach, one per row, written into `out` as pairs; returns how many numbers were
   * written. Each row's columns are those its latitude band of the circle spans (capBands), not
   * the whole bounding box's: a 100 km search reads about a fifth fewer offices. Longitudes are
   * not wrapped across the antimeridian (the directory is Canada's).
   */
  spans(centre: LatLng, radiusKm: number, out: number[]): number {
    const degrees = this.cellDegrees;
    const cap = capBands(centre, radiusKm);
    const fromRow = Math.max(cellIndex(cap.fromLat, 90, degrees), this.firstRow) - this.firstRow;
    const toRow = Math.min(cellIndex(cap.toLat, 90, degrees), this.firstRow + this.rows - 1) - this.firstRow;
    let n = 0;
    for (let row = fromRow; row <= toRow; row++) {
      const south = (this.firstRow + row) * degrees - 90;
      const halfWidth = cap.halfWidth(south, south + degrees);
      if (halfWidth < 0) continue;
      const west = halfWidth >= 180 ? -180 : Math.max(-180, centre.lng - halfWidth);
      const east = halfWidth >= 180 ? 180 : Math.min(180, centre.lng + halfWidth);
      const fromColumn = Math.max(cellIndex(west, 180, degrees), this.firstColumn) - this.firstColumn;
      const toColumn = Math.min(cellIndex(east, 180, degrees), this.firstColumn + this.columns - 1) - this.firstColumn;
      if (fromColumn > toColumn) continue;
      const from = this.start[row * this.columns + fromColumn]!;
      const to = this.start[row * this.columns + toColumn + 1]!;
      if (from < to) {
        out[n++] = from;
        out[n++] = to;
      }
    }
    return n;
  }

  bytes(): number {
    return this.x.byteLength + this.y.byteLength + this.z.byteLength + this.rank.byteLength + this.start.byteLength;
  }
}

function cellIndex(degrees: number, offset: number, cellDegrees: number): number {
  return Math.floor((degrees + offset) / cellDegrees);
}
