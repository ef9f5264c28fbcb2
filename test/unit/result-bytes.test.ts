import { expect, test } from "bun:test";
import { ResultBytes } from "../../src/adapters/mcp/resultBytes.ts";

const make = (idJson: string, bytes: Uint8Array<ArrayBuffer>) => new Uint8Array(new TextEncoder().encode(`${idJson}:${new TextDecoder().decode(bytes)}`));

test("the envelope of the last id is kept and sent again as it is; another id replaces it", () => {
  const result = new ResultBytes(new TextEncoder().encode("{}"));
  const first = result.enveloped("1", make);
  expect(new TextDecoder().decode(first)).toBe("1:{}");
  expect(result.enveloped("1", make)).toBe(first);
  const other = result.enveloped('"a"', make);
  expect(new TextDecoder().decode(other)).toBe('"a":{}');
  expect(result.enveloped('"a"', make)).toBe(other);
  expect(result.enveloped("1", make)).not.toBe(first);
});

test("a long id is enveloped afresh every time and never kept", () => {
  const result = new ResultBytes(new TextEncoder().encode("{}"));
  const kept = result.enveloped("1", make);
  const long = JSON.stringify("x".repeat(100));
  const once = result.enveloped(long, make);
  expect(result.enveloped(long, make)).not.toBe(once);
  expect(result.enveloped("1", make)).toBe(kept);
});

test("the cache counts room for the kept envelope beside the bytes", () => {
  const bytes = new Uint8Array(10_000);
  const result = new ResultBytes(bytes);
  const envelope = result.enveloped(JSON.stringify("é".repeat(30)), (idJson, b) => new Uint8Array(32 + Buffer.byteLength(idJson) + b.length));
  expect(result.byteLength).toBeGreaterThanOrEqual(bytes.byteLength + envelope.byteLength);
});
