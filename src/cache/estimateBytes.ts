/** Rough per-object costs in JavaScriptCore: a cell header and its property storage. */
export const OBJECT_BYTES = 48;
export const SLOT_BYTES = 16;

/**
 * An estimate of the memory a value kept in a cache holds: strings at two bytes a character,
 * typed arrays at their length, objects, arrays and maps at a header plus a slot per member.
 * For plain data built by our stores (no cycles); it errs high rather than low.
 */
export function estimateBytes(value: unknown): number {
  if (value === null || value === undefined || typeof value === "boolean" || typeof value === "number") return SLOT_BYTES;
  if (typeof value === "string") return OBJECT_BYTES / 2 + value.length * 2;
  if (ArrayBuffer.isView(value)) return OBJECT_BYTES + value.byteLength;
  if (value instanceof Map) {
    let bytes = OBJECT_BYTES;
    for (const [k, v] of value) bytes += SLOT_BYTES * 2 + estimateBytes(k) + estimateBytes(v);
    return bytes;
  }
  if (Array.isArray(value)) {
    let bytes = OBJECT_BYTES;
    for (const item of value) bytes += SLOT_BYTES + estimateBytes(item);
    return bytes;
  }
  if (typeof value === "object") {
    let bytes = OBJECT_BYTES;
    for (const [k, v] of Object.entries(value)) bytes += SLOT_BYTES + k.length + estimateBytes(v);
    return bytes;
  }
  return SLOT_BYTES;
}
