import { describe, expect, test } from "bun:test";
import { buildWidget, WIDGET_BUDGET_GZIP_BYTES } from "../../scripts/build-widget.ts";

describe("dist/widget.js", async () => {
  const { code, gzipBytes } = await buildWidget();

  test("fits the 30 KB gzip budget, Lit included", () => {
    expect(gzipBytes).toBeLessThanOrEqual(WIDGET_BUDGET_GZIP_BYTES);
  });

  test("is valid as a classic script: no top-level import/export, nothing leaked globally", () => {
    // new Function parses its body as script code, where import/export are syntax errors.
    expect(() => new Function(code)).not.toThrow();
    expect(code.trimStart().startsWith("(()=>{")).toBe(true);
    expect(code.trimEnd().endsWith("})();")).toBe(true);
  });

  test("ships Lit's production build and no import.meta", () => {
    expect(code).not.toContain("Lit is in dev mode");
    expect(code).not.toContain("import.meta");
  });
});
