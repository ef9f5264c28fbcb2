import { useDom } from "./setup-dom.ts";
import { afterEach, describe, expect, test } from "bun:test";
import type { BrokerReviews } from "../../widget/reviews.ts";
import { baseStyles } from "../../widget/styles.ts";
import { json, mockFetch, mount } from "./helpers.ts";

useDom();

let restore = () => {};
afterEach(() => restore());

describe("themes", () => {
  test("light by default, reflected so the stylesheet can match it", async () => {
    restore = mockFetch(json(404, { error: "x" })).restore;
    const el = await mount<BrokerReviews>(`<broker-reviews api-key="k" broker="b"></broker-reviews>`);
    expect(el.getAttribute("theme")).toBe("light");
    el.theme = "dark";
    await el.updateComplete;
    expect(el.getAttribute("theme")).toBe("dark");
  });

  test("auto follows prefers-color-scheme in CSS (live, no script), every colour overridable", () => {
    const cssText = baseStyles.cssText.replace(/\s+/g, " ");
    expect(cssText).toContain('@media (prefers-color-scheme: dark) { :host([theme="auto"])');
    for (const property of ["--bw-accent", "--bw-bg", "--bw-fg", "--bw-radius", "--bw-font", "--bw-border", "--bw-error"]) {
      expect(cssText).toContain(`var(${property},`);
    }
  });
});
