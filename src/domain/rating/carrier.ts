import type { ProvinceCode } from "../provinces.ts";

/** A carrier of the catalogue, as the engine sees it: plain data, passed in by the caller. */
export interface Carrier {
  slug: string;
  name: string;
  /** Insurance line labels it writes: "Auto", "Home", "Condo", "Tenant", "Life", "Travel"… */
  lines: readonly string[];
  provinces: readonly ProvinceCode[];
}

/** The carriers that write `lineLabel` in `province`, in catalogue order. */
export function carriersWriting(catalogue: readonly Carrier[], lineLabel: string, province: ProvinceCode): Carrier[] {
  return catalogue.filter((c) => c.lines.includes(lineLabel) && c.provinces.includes(province));
}

const UTF8 = new TextEncoder();

/**
 * FNV-1a, 32-bit, over the text's UTF-8 bytes: a small, stable, well-spread hash (the same on
 * every machine and run). ASCII characters are their own UTF-8 byte, so they are hashed
 * straight from the string; only from the first other character on is the rest encoded (a
 * TextEncoder per call was a sixth of a quote's CPU: the engine hashes every carrier twice).
 */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x80) {
      for (const byte of UTF8.encode(text.slice(i))) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
      break;
    }
    hash = Math.imul(hash ^ code, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/**
 * A carrier's pricing appetite for a line: a stable factor in [0.85, 1.15) from the hash of
 * its slug and the line, so each carrier is cheap in some lines and dear in others, always
 * the same way.
 */
export function carrierFactor(slug: string, lineLabel: string): number {
  return 0.85 + (fnv1a(`${slug}:${lineLabel}`) / 2 ** 32) * 0.3;
}

/** Whether the carrier sells its enhanced package for this line (stable, from the slug's hash). */
export function offersEnhancedCoverage(slug: string, lineLabel: string): boolean {
  return fnv1a(`${lineLabel}|${slug}`) % 2 === 1;
}
