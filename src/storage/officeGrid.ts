/** Grid cells of a quarter degree: a 25 km search reads about four of them. */
const CELL_DEGREES = 0.25;
const cellIndex = (degrees: number, offset: number) => Math.floor((degrees + offset) / CELL_DEGREES);

export interface Box {
  minLat: number;
  maxLat: number;
  minLng: number;
  maxLng: number;
}

/**
 * Offices with coordinates, copied in grid order: by quarter-degree cell, row by row (latitude),
 * each row west to east, and within a cell in slot order. The cells of one row that a box
 * overlaps are then one contiguous span, so a near search reads a few runs of adjacent memory
 * instead of looking cells up one by one. `start` indexes the cells of the rectangle that holds
 * every office (at most 721 × 1441 cells: 4 MB of start offsets for offices spread over the globe).
 */
export class OfficeGrid {
  readonly lat: Float64Array;
  readonly lng: Float64Array;
  readonly cosLat: Float64Array;
  readonly rank: Int32Array;
  private readonly start: Int32Array;
  private readonly firstRow: number;
  private readonly rows: number;
  private readonly firstColumn: number;
  private readonly columns: number;

  constructor(officeLat: Float64Array, officeLng: Float64Array, officeCosLat: Float64Array, officeRank: Int32Array) {
    const slots: number[] = [];
    for (let slot = 0; slot < officeLat.length; slot++) if (!Number.isNaN(officeLat[slot]!) && !Number.isNaN(officeLng[slot]!)) slots.push(slot);
    let [minRow, maxRow, minColumn, maxColumn] = [Infinity, -Infinity, Infinity, -Infinity];
    for (const slot of slots) {
      const row = cellIndex(officeLat[slot]!, 90);
      const column = cellIndex(officeLng[slot]!, 180);
      [minRow, maxRow, minColumn, maxColumn] = [Math.min(minRow, row), Math.max(maxRow, row), Math.min(minColumn, column), Math.max(maxColumn, column)];
    }
    this.firstRow = slots.length ? minRow : 0;
    this.rows = slots.length ? maxRow - minRow + 1 : 0;
    this.firstColumn = slots.length ? minColumn : 0;
    this.columns = slots.length ? maxColumn - minColumn + 1 : 0;
    const cellOf = (slot: number) =>
      (cellIndex(officeLat[slot]!, 90) - this.firstRow) * this.columns + (cellIndex(officeLng[slot]!, 180) - this.firstColumn);
    // A counting sort by cell, stable, so each cell keeps its offices in slot order.
    this.start = new Int32Array(this.rows * this.columns + 1);
    for (const slot of slots) this.start[cellOf(slot) + 1]!++;
    for (let cell = 0; cell < this.rows * this.columns; cell++) this.start[cell + 1]! += this.start[cell]!;
    const next = this.start.slice(0, this.rows * this.columns);
    this.lat = new Float64Array(slots.length);
    this.lng = new Float64Array(slots.length);
    this.cosLat = new Float64Array(slots.length);
    this.rank = new Int32Array(slots.length);
    for (const slot of slots) {
      const at = next[cellOf(slot)]!++;
      this.lat[at] = officeLat[slot]!;
      this.lng[at] = officeLng[slot]!;
      this.cosLat[at] = officeCosLat[slot]!;
      this.rank[at] = officeRank[slot]!;
    }
  }

  /**
   * The spans [from, to) of grid-ordered offices in the cells the box overlaps, one per row,
   * written into `out` as pairs; returns how many numbers were written.
   */
  spans(box: Box, out: number[]): number {
    const fromRow = Math.max(cellIndex(box.minLat, 90), this.firstRow) - this.firstRow;
    const toRow = Math.min(cellIndex(box.maxLat, 90), this.firstRow + this.rows - 1) - this.firstRow;
    const fromColumn = Math.max(cellIndex(Math.max(-180, box.minLng), 180), this.firstColumn) - this.firstColumn;
    const toColumn = Math.min(cellIndex(Math.min(180, box.maxLng), 180), this.firstColumn + this.columns - 1) - this.firstColumn;
    let n = 0;
    if (fromColumn > toColumn) return 0;
    for (let row = fromRow; row <= toRow; row++) {
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
    return this.lat.byteLength + this.lng.byteLength + this.cosLat.byteLength + this.rank.byteLength + this.start.byteLength;
  }
}
