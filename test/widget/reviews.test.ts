import { useDom } from "./setup-dom.ts";
import { afterEach, describe, expect, test } from "bun:test";
import "../../widget/reviews.ts";
import type { BrokerReviews } from "../../widget/reviews.ts";
import type { BrokerSummary, Review } from "../../widget/types.ts";
import { json, mockFetch, mount, shadow, text, until } from "./helpers.ts";

useDom();

// Typed with the API's own types: a renamed or retyped field fails the typecheck test.
const summary: BrokerSummary = {
  id: "7",
  name: "Beauchamp & Fils",
  slug: "beauchamp-fils",
  averageRating: 4.25,
  reviewCount: 12,
  isVerified: true,
  photoUrl: "https://d.example/p.svg",
  distribution: { "1": 0, "2": 1, "3": 1, "4": 5, "5": 5 },
};
const review = (over: Partial<Review> = {}): Review => ({
  id: "r1",
  authorName: "Marie T.",
  rating: 4,
  title: "Quick and clear",
  content: "They found me a better rate.\nThanks!",
  createdAt: "2026-03-04T15:30:00.000Z",
  ...over,
});

let restore = () => {};
afterEach(() => restore());

describe("<broker-reviews>", () => {
  test("requests the broker's reviews and renders the summary and the list", async () => {
    const fetch = mockFetch(json(200, { data: { broker: summary, reviews: [review()] } }));
    restore = fetch.restore;
    const el = await mount<BrokerReviews>(`<broker-reviews api-key="brk_x" api-base="https://d.example" broker="beauchamp-fils" limit="3"></broker-reviews>`);
    await until(() => shadow(el).querySelector("[part=review]"));
    const call = fetch.calls[0]!;
    expect(call.url.pathname).toBe("/api/v1/embed/reviews");
    expect(Object.fromEntries(call.url.searchParams)).toEqual({ broker: "beauchamp-fils", limit: "3" });
    expect(call.headers.get("Authorization")).toBe("Bearer brk_x");
    const t = text(el);
    expect(t).toContain("Reviews of Beauchamp & Fils");
    expect(t).toContain("4.25");
    expect(t).toContain("12 reviews");
    expect(t).toContain("Quick and clear");
    expect(t).toContain("by Marie T.");
    expect(t).toContain("March 4, 2026");
    expect(shadow(el).querySelector("[part=review] [role=img]")?.getAttribute("aria-label")).toBe("Rated 4 out of 5");
  });

  test("review content with markup shows as text, never as an element", async () => {
    const evil = "<img src=x onerror=alert(1)>";
    restore = mockFetch(json(200, { data: { broker: { ...summary, name: "<script>x</script>" }, reviews: [review({ content: evil, title: "<b>hi</b>", authorName: "<i>me</i>" })] } })).restore;
    const el = await mount<BrokerReviews>(`<broker-reviews api-key="k" api-base="https://d.example" broker="b"></broker-reviews>`);
    const article = await until(() => shadow(el).querySelector("[part=review]"));
    expect(article.querySelector("img")).toBeNull();
    expect(article.querySelector("b, i")).toBeNull();
    expect(shadow(el).querySelector("script")).toBeNull();
    expect(article.querySelector(".body")?.textContent).toBe(evil);
    expect(text(el)).toContain("<script>x</script>");
  });

  test("empty state and a broker with no rating yet", async () => {
    restore = mockFetch(json(200, { data: { broker: { ...summary, averageRating: 0, reviewCount: 0 }, reviews: [] } })).restore;
    const el = await mount<BrokerReviews>(`<broker-reviews api-key="k" api-base="https://d.example" broker="b"></broker-reviews>`);
    await until(() => shadow(el).querySelector("[part=empty]"));
    expect(text(el)).toContain("This broker has no reviews yet.");
    expect(text(el)).toContain("No reviews yet");
    expect(shadow(el).querySelector("[part=stars]")).toBeNull();
  });

  test("a verified broker carries the Verified badge; an unverified one none", async () => {
    restore = mockFetch(json(200, { data: { broker: summary, reviews: [] } })).restore;
    const verified = await mount<BrokerReviews>(`<broker-reviews api-key="k" api-base="https://d.example" broker="b"></broker-reviews>`);
    const badge = await until(() => shadow(verified).querySelector("[part=verified]"));
    expect(badge.textContent).toContain("Verified");
    restore();
    restore = mockFetch(json(200, { data: { broker: { ...summary, isVerified: false }, reviews: [] } })).restore;
    const plain = await mount<BrokerReviews>(`<broker-reviews api-key="k" api-base="https://d.example" broker="b"></broker-reviews>`);
    await until(() => shadow(plain).querySelector("[part=empty]"));
    expect(shadow(plain).querySelector("[part=verified]")).toBeNull();
  });

  test("French dates and strings", async () => {
    restore = mockFetch(json(200, { data: { broker: summary, reviews: [review()] } })).restore;
    const el = await mount<BrokerReviews>(`<broker-reviews api-key="k" api-base="https://d.example" broker="b" lang="fr"></broker-reviews>`);
    await until(() => shadow(el).querySelector("[part=review]"));
    const t = text(el);
    expect(t).toContain("Avis sur Beauchamp & Fils");
    expect(t).toContain("4 mars 2026");
    expect(t).toContain("par Marie T.");
    expect(t).toContain("4,25");
  });

  test("an unknown broker (404) explains itself with the server's message", async () => {
    restore = mockFetch(json(404, { error: "No broker with slug nope" })).restore;
    const el = await mount<BrokerReviews>(`<broker-reviews api-key="k" api-base="https://d.example" broker="nope"></broker-reviews>`);
    await until(() => shadow(el).querySelector("[part=problem]"));
    expect(text(el)).toContain("check the broker slug");
    expect(text(el)).toContain("No broker with slug nope");
  });

  test("without data-broker it tells the site owner", async () => {
    const fetch = mockFetch(json(200, {}));
    restore = fetch.restore;
    const el = await mount<BrokerReviews>(`<broker-reviews api-key="k" api-base="https://d.example"></broker-reviews>`);
    await until(() => shadow(el).querySelector("[part=problem]"));
    expect(text(el)).toContain("set data-broker");
    expect(fetch.calls).toHaveLength(0);
  });
});
