import { TEAM_SIZES, type TeamSize } from "../domain/teamSize.ts";

/**
 * The team-size band and verification mark of a generated broker: a pure function of its id
 * (no random draw, so adding them left every other generated value as it was). Migration 0004
 * computes exactly this in SQL for brokers that existed before; a test keeps the two in step.
 */
export function teamSizeFor(id: number): TeamSize {
  const bucket = (id * 37) % 20;
  if (bucket < 9) return TEAM_SIZES[0];
  if (bucket < 15) return TEAM_SIZES[1];
  if (bucket < 18) return TEAM_SIZES[2];
  return bucket === 18 ? TEAM_SIZES[3] : TEAM_SIZES[4];
}

/** Seven brokers in ten with a licence number have had it checked with their regulator. */
export function isVerifiedFor(id: number, licenseNumber: string | null): boolean {
  return licenseNumber !== null && (id * 13) % 10 < 7;
}
