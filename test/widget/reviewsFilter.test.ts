import { useDom } from "./setup-dom.ts";
import { afterEach, describe, expect, test } from "bun:test";
import "../../widget/reviews.ts";
import type { BrokerReviews } from "../../widget/reviews.ts";
import type { BrokerSummary, Review } from "../../widget/types.ts";
import { fill, json, mockFetch, mount, params, shadow, text, until } from "./helpers.ts";

useDom();

// Typed with the API's own types: a renamed or retyped field fails the typecheck test.
const summary: BrokerSummary = {
  id: "7",
  name: "Beauchamp & Fils",
  slug: "beauchamp-fils",
  averageRating: 4.1,
  reviewCount: 12,
  isVerified: true,
  photoUrl: "https://d.example/p.svg",
  distribution: { "1": 0, "2": 1, "3": 1, "4": 5, "5": 5 },
};
const review = (id: number, rating: number): Review => ({
  id: String(id),
  authorName: "Marie T.",
  rating,
  title: `Review ${id}`,
  content: "Fine.",
  createdAt: "2026-03-04T15:30:00.000Z",
});
const ALL = [review(1, 5), review(2, 4), review(3, 2), review(4, 5), review(5, 3)];

/** A server double: filters by rating like the real one, and records each call. */
function reviewsServer() {
  return mockFetch((call) => {
    const rating = call.url.searchParams.get("rating");
    return json(200, { data: { broker: summary, reviews: ALL.filter((r) => !rating || r.rating === Number(rating)) } });
  });
}

let restore = () => {};
afterEach(() => restore());

const TAG = `<broker-reviews api-key="k" api-base="https://d.example" broker="beauchamp-fils"></broker-reviews>`;
const bars = (el: Element) => [...shadow(el).querySelectorAll<HTMLButtonElement>("[part=histogram-bar]")];
const shownRatings = (el: Element) => [...shadow(el).querySelectorAll("[part=review] [role=img]")].map((s) => s.getAttribute("aria-label"));

describe("<broker-reviews> sort menu", () => {
  test("offers the four orders and sends the one chosen", async () => {
    const fetch = reviewsServer();
    restore = fetch.restore;
    const el = await mount<BrokerReviews>(TAG);
    await until(() => shadow(el).querySelector("[part=review]"));
    expect(params(fetch.calls[0]).sort).toBeUndefined(); // newest is the server's default
    const select = shadow(el).querySelector<HTMLSelectElement>("[name=sort]")!;
    expect(shadow(el).querySelector(`label[for="${select.id}"]`)?.textContent).toBe("Sort reviews");
    expect([...select.options].map((o) => [o.value, o.textContent])).toEqual([
      ["newest", "Newest first"],
      ["oldest", "Oldest first"],
      ["highest", "Highest rated"],
      ["lowest", "Lowest rated"],
    ]);
    fill(shadow(el), "sort", "highest");
    await until(() => fetch.calls.length === 2);
    expect(params(fetch.calls[1])).toEqual({ broker: "beauchamp-fils", sort: "highest" });
  });
});

describe("<broker-reviews> histogram", () => {
  test("one labelled button per star value, bars sized by count, empty ones disabled", async () => {
    restore = reviewsServer().restore;
    const el = await mount<BrokerReviews>(TAG);
    await until(() => bars(el).length === 5);
    expect(bars(el).map((b) => b.getAttribute("aria-label"))).toEqual([
      "5 stars: 5 reviews, show only these",
      "4 stars: 5 reviews, show only these",
      "3 stars: 1 review, show only these",
      "2 stars: 1 review, show only these",
      "1 star: 0 reviews, show only these",
    ]);
    expect(bars(el).map((b) => b.disabled)).toEqual([false, false, false, false, true]);
    expect(bars(el).map((b) => b.getAttribute("aria-pressed"))).toEqual(["false", "false", "false", "false", "false"]);
    expect(bars(el).map((b) => b.querySelector<HTMLElement>(".bar-fill")!.style.width)).toEqual(["100%", "100%", "20%", "20%", "0%"]);
    expect(shadow(el).querySelector("[part=histogram]")?.getAttribute("role")).toBe("group");
  });

  test("clicking a bar shows only those reviews, says so, and Show all clears it (focus back on the bar)", async () => {
    const fetch = reviewsServer();
    restore = fetch.restore;
    const el = await mount<BrokerReviews>(TAG);
    await until(() => bars(el).length === 5);
    bars(el)[0]!.click();
    await until(() => fetch.calls.length === 2);
    expect(params(fetch.calls[1])).toEqual({ broker: "beauchamp-fils", rating: "5" });
    await until(() => shownRatings(el).length === 2);
    expect(shownRatings(el)).toEqual(["Rated 5 out of 5", "Rated 5 out of 5"]);
    expect(bars(el)[0]!.getAttribute("aria-pressed")).toBe("true");
    expect(shadow(el).querySelector("[part=active-filter]")?.textContent).toContain("Showing only reviews with 5 stars.");
    await until(() => shadow(el).querySelector("[aria-live]")?.textContent === "Showing only reviews with 5 stars.");

    // Sorting keeps the filter.
    fill(shadow(el), "sort", "oldest");
    await until(() => fetch.calls.length === 3);
    expect(params(fetch.calls[2])).toEqual({ broker: "beauchamp-fils", rating: "5", sort: "oldest" });

    shadow(el).querySelector<HTMLButtonElement>("[part~=clear-filter]")!.click();
    await until(() => shownRatings(el).length === ALL.length);
    expect(params(fetch.calls.at(-1))).toEqual({ broker: "beauchamp-fils", sort: "oldest" });
    expect(shadow(el).querySelector("[part=active-filter]")).toBeNull();
    expect(shadow(el).activeElement).toBe(bars(el)[0]!);
  });

  test("pressing the active bar again clears the filter", async () => {
    const fetch = reviewsServer();
    restore = fetch.restore;
    const el = await mount<BrokerReviews>(TAG);
    await until(() => bars(el).length === 5);
    bars(el)[3]!.click();
    await until(() => bars(el)[3]!.getAttribute("aria-pressed") === "true");
    bars(el)[3]!.click();
    await until(() => bars(el)[3]!.getAttribute("aria-pressed") === "false");
    expect(params(fetch.calls.at(-1)).rating).toBeUndefined();
  });

  test("French labels", async () => {
    restore = reviewsServer().restore;
    const el = await mount<BrokerReviews>(TAG.replace("<broker-reviews ", `<broker-reviews lang="fr" `));
    await until(() => bars(el).length === 5);
    expect(bars(el)[0]!.getAttribute("aria-label")).toBe("5 étoiles : 5 avis, afficher seulement ceux-ci");
    expect(bars(el)[4]!.getAttribute("aria-label")).toBe("1 étoile : 0 avis, afficher seulement ceux-ci");
    expect(text(el)).toContain("Trier les avis");
  });

  test("no histogram or sort menu for a broker without reviews", async () => {
    restore = mockFetch(json(200, { data: { broker: { ...summary, reviewCount: 0, averageRating: 0, distribution: { "1": 0, "2": 0, "3": 0, "4": 0, "5": 0 } }, reviews: [] } })).restore;
    const el = await mount<BrokerReviews>(TAG);
    await until(() => shadow(el).querySelector("[part=empty]"));
    expect(shadow(el).querySelector("[part=histogram]")).toBeNull();
    expect(shadow(el).querySelector("[name=sort]")).toBeNull();
  });
});
