import { expect, test } from "bun:test";
import { formatCanadianPhone, normalizeNorthAmericanPhone } from "../../src/domain/phone.ts";

test("a stored North American number is shown as Canadians write it", () => {
  expect(formatCanadianPhone("+14165550123")).toBe("(416) 555-0123");
  expect(formatCanadianPhone("+15145550199")).toBe("(514) 555-0199");
});

test("whatever is not a stored +1 number is shown as it is, never half-rewritten", () => {
  for (const other of ["+442071838750", "416-555-0123", "", "+1416555012", "+141655501234", "+11165550123", "call me"]) {
    expect(formatCanadianPhone(other)).toBe(other);
  }
});

test("every number the lead form accepts is shown formatted (normalise, then format)", () => {
  for (const typed of ["(416) 555-0123", "416.555.0123", "+1 416 555 0123", "1-416-555-0123", "4165550123"]) {
    const normalized = normalizeNorthAmericanPhone(typed);
    expect(normalized.ok && formatCanadianPhone(normalized.e164)).toBe("(416) 555-0123");
  }
});
