/** Issue 29: the reviews widget pages with Show more (20 reviews no longer stop at 5). */
import { useDom } from "./setup-dom.ts";
import { afterEach, expect, test } from "bun:test";
import type { BrokerReviews } from "../../widget/reviews.ts";
import type { Review } from "../../widget/types.ts";
import { json, mockFetch, mount, shadow, text, until, type Call } from "./helpers.ts";

useDom();

const broker = { id: "7", name: "B", slug: "b", averageRating: 4, reviewCount: 12, isVerified: false, photoUrl: "https://d.example/p.svg", distribution: { "1": 0, "2": 0, "3": 0, "4": 12, "5": 0 } };
const review = (i: number): Review => ({ id: `r${i}`, rating: 4, title: `Review ${i}`, content: "Fine.", authorName: "A B.", createdAt: "2026-01-01T00:00:00.000Z" });
const page = (call: Call) => {
  const n = Number(call.url.searchParams.get("page") ?? 1);
  const all = Array.from({ length: 12 }, (_, i) => review(i + 1));
  return json(200, { data: { broker, reviews: all.slice((n - 1) * 5, n * 5), total: 12 } });
};

let restore = () => {};
afterEach(() => restore());

test("Show more asks for the next page, appends it, moves focus to the first new review, and stops at the total", async () => {
  const fetch = mockFetch(page);
  restore = fetch.restore;
  const el = await mount<BrokerReviews>(`<broker-reviews api-key="k" api-base="https://d.example" broker="b"></broker-reviews>`);
  await until(() => shadow(el).querySelectorAll("[part=review]").length === 5);
  expect(text(el)).toContain("Showing 5 of 12 reviews.");
  const more = () => shadow(el).querySelector<HTMLButtonElement>("[part~=show-more]");
  more()!.click();
  await until(() => shadow(el).querySelectorAll("[part=review]").length === 10);
  expect(fetch.calls[1]!.url.searchParams.get("page")).toBe("2");
  expect(shadow(el).activeElement).toBe(shadow(el).querySelectorAll("[part=review]")[5]!);
  more()!.click();
  await until(() => shadow(el).querySelectorAll("[part=review]").length === 12);
  expect(more()).toBeNull();
  expect(text(el)).toContain("Showing 12 of 12 reviews.");
});

test("while the first page loads, a skeleton of the page's size stands in, hidden from screen readers", async () => {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  restore = mockFetch(async (call) => {
    await held;
    return page(call);
  }).restore;
  const el = await mount<BrokerReviews>(`<broker-reviews api-key="k" api-base="https://d.example" broker="b" limit="3"></broker-reviews>`);
  const skeleton = await until(() => shadow(el).querySelector("[part~=skeleton]"));
  expect(skeleton.getAttribute("aria-hidden")).toBe("true");
  expect(skeleton.querySelectorAll(".review")).toHaveLength(3);
  release();
  await until(() => shadow(el).querySelector("[part=review]"));
  expect(shadow(el).querySelector("[part~=skeleton]")).toBeNull();
});
