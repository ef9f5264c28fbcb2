import { installDom, removeDom, useDom } from "./setup-dom.ts";
import { describe, expect, test } from "bun:test";

useDom();

describe("the widget tests' DOM stays out of other test files", () => {
  test("removeDom takes the DOM globals away and keeps Bun's network globals", () => {
    const bunResponse = globalThis.Response;
    expect(typeof document).toBe("object");
    removeDom();
    try {
      expect(typeof (globalThis as { document?: unknown }).document).toBe("undefined");
      expect(typeof (globalThis as { HTMLElement?: unknown }).HTMLElement).toBe("undefined");
      expect(globalThis.Response).toBe(bunResponse);
    } finally {
      installDom();
    }
    expect(typeof document).toBe("object");
    expect(customElements.get("broker-quote-form")).toBeDefined();
  });
});
