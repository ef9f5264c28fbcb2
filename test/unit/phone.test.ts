import { expect, test } from "bun:test";
import { normalizeNorthAmericanPhone } from "../../src/domain/phone.ts";

test.each([
  "(416) 555-0199",
  "416.555.0199",
  "+1 416 555 0199",
  "1-416-555-0199",
  "4165550199",
  "  416 555 0199  ",
  "+1 (416) 555-0199",
  "14165550199",
])("%s → +14165550199", (input) => {
  expect(normalizeNorthAmericanPhone(input)).toEqual({ ok: true, e164: "+14165550199" });
});

test.each([
  ["", "is required"],
  ["555-0199", "10 digits"],
  ["416-555-01999", "10 digits"],
  ["+44 20 7946 0958", "North American number (+1)"],
  ["1-800-FLOWERS", "digits only"],
  ["416-555-0199 ext 12", "digits only"],
  ["(016) 555-0199", "cannot start with 0 or 1"],
  ["416 155 0199", "cannot start with 0 or 1"],
  ["911 555 0199", "service code"],
  ["416_555_0199", "digits, spaces"],
  ["2-416-555-0199", "10 digits"],
])("%s is refused (%s)", (input, fragment) => {
  const result = normalizeNorthAmericanPhone(input);
  expect(result.ok).toBe(false);
  if (!result.ok) expect(result.message).toContain(fragment);
});
