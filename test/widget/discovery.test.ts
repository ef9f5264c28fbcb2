import { useDom } from "./setup-dom.ts";
import { afterEach, describe, expect, test } from "bun:test";
import { BROKER_FACETS, BROKER_SORTS } from "../../src/schemas/discovery.ts";
import { REVIEW_SORTS as SERVER_REVIEW_SORTS } from "../../src/schemas/reviewParams.ts";
import "../../widget/directory.ts";
import type { BrokerDirectory } from "../../widget/directory.ts";
import { FILTER_FACETS, REVIEW_SORTS, SORTS } from "../../widget/discovery.ts";
import type { BrokerCard, BrokerPage } from "../../widget/types.ts";
import { fill, json, mockFetch, mount, params, shadow, text, typeInto, until } from "./helpers.ts";

useDom();

// Typed with the API's own types: a renamed or retyped field fails the typecheck test.
const broker = (id: number, over: Partial<BrokerCard> = {}): BrokerCard => ({
  id: String(id),
  name: `Broker ${id}`,
  slug: `broker-${id}`,
  city: "Toronto",
  province: "ON",
  averageRating: 4.2,
  reviewCount: 3,
  isVerified: false,
  photoUrl: "https://d.example/p.svg",
  insuranceLines: ["Auto"],
  ...over,
});
const page = (data: BrokerCard[], total = data.length, facets?: BrokerPage["facets"]): BrokerPage => ({ data, total, ...(facets ? { facets } : {}) });

let restore = () => {};
afterEach(() => restore());

const TAG = `<broker-directory api-key="k" api-base="https://d.example"></broker-directory>`;

async function mountDirectory(markup = TAG) {
  const el = await mount<BrokerDirectory>(markup);
  await until(() => shadow(el).querySelector("[part=card], [part=empty]"));
  return el;
}

/** The orders a visitor can pick: every order is listed, the ones the server would refuse disabled. */
const sortOptions = (el: Element) => [...shadow(el).querySelectorAll<HTMLOptionElement>("[name=sort] option:not([disabled])")].map((o) => o.value);
const optionLabels = (el: Element, name: string) => [...shadow(el).querySelectorAll<HTMLOptionElement>(`[name=${name}] option`)].map((o) => o.textContent?.trim());

describe("the widget's copies of the server's lists", () => {
  test("sorts, facets and review sorts are the server's", () => {
    expect([...SORTS].sort()).toEqual([...BROKER_SORTS].sort());
    expect(FILTER_FACETS.every((f) => (BROKER_FACETS as readonly string[]).includes(f))).toBe(true);
    expect([...REVIEW_SORTS]).toEqual([...SERVER_REVIEW_SORTS]);
  });
});

describe("<broker-directory> search box", () => {
  test("waits for a pause in typing, then sends q once with the last text", async () => {
    const fetch = mockFetch(json(200, page([broker(1)])));
    restore = fetch.restore;
    const el = await mountDirectory();
    for (const typed of ["m", "ma", "map", "maple "]) {
      typeInto(shadow(el), "q", typed);
      await el.updateComplete; // each keystroke gets its own render: without the pause, each would send
      expect(fetch.calls).toHaveLength(1);
    }
    await until(() => fetch.calls.length === 2);
    await new Promise((r) => setTimeout(r, 400)); // no late request for a half-typed word either
    expect(fetch.calls).toHaveLength(2);
    expect(params(fetch.calls[1])).toEqual({ q: "maple", facets: "province,insuranceType" });
  });

  test("Enter sends the search at once, without waiting for the pause", async () => {
    const fetch = mockFetch(json(200, page([broker(1)])));
    restore = fetch.restore;
    const el = await mountDirectory();
    typeInto(shadow(el), "q", "farm");
    shadow(el).querySelector("form")!.dispatchEvent(new Event("submit", { cancelable: true }));
    await el.updateComplete;
    expect(fetch.calls).toHaveLength(2);
    expect(params(fetch.calls[1]).q).toBe("farm");
    // The pending pause does not send it a second time.
    await new Promise((r) => setTimeout(r, 400));
    expect(fetch.calls).toHaveLength(2);
  });

  test("the search box is a labelled search input with a hint", async () => {
    restore = mockFetch(json(200, page([]))).restore;
    const el = await mountDirectory();
    const input = shadow(el).querySelector<HTMLInputElement>("[name=q]")!;
    expect(input.type).toBe("search");
    expect(shadow(el).querySelector(`label[for="${input.id}"]`)?.textContent).toBe("Search");
    expect(shadow(el).getElementById(input.getAttribute("aria-describedby")!)?.textContent).toContain("A name or a word");
  });
});

describe("<broker-directory> Near", () => {
  test("a whole postal code is sent as near and each card shows its distance", async () => {
    const fetch = mockFetch((call) =>
      json(200, call.url.searchParams.has("near") ? page([broker(1, { distanceKm: 2.3 }), broker(2, { distanceKm: 12 })]) : page([broker(1)])),
    );
    restore = fetch.restore;
    const el = await mountDirectory();
    expect(shadow(el).querySelector("[part=card-distance]")).toBeNull();
    typeInto(shadow(el), "near", "m5v 3l9");
    await until(() => fetch.calls.length === 2);
    expect(params(fetch.calls[1]).near).toBe("m5v 3l9");
    await until(() => shadow(el).querySelector("[part=card-distance]"));
    expect([...shadow(el).querySelectorAll("[part=card-distance]")].map((d) => d.textContent)).toEqual(["2.3 km away", "12 km away"]);
  });

  test("a half-typed code is not sent while typing; leaving the field sends what is there (an FSA)", async () => {
    const fetch = mockFetch(json(200, page([broker(1, { distanceKm: 0.4 })])));
    restore = fetch.restore;
    const el = await mountDirectory();
    typeInto(shadow(el), "near", "M5V");
    await new Promise((r) => setTimeout(r, 400));
    expect(fetch.calls).toHaveLength(1);
    shadow(el).querySelector("[name=near]")!.dispatchEvent(new Event("change", { bubbles: true }));
    await until(() => fetch.calls.length === 2);
    expect(params(fetch.calls[1]).near).toBe("M5V");
  });

  test("French formats the distance with a decimal comma", async () => {
    restore = mockFetch(json(200, page([broker(1, { distanceKm: 2.3 })]))).restore;
    const el = await mountDirectory(`<broker-directory api-key="k" api-base="https://d.example" lang="fr"></broker-directory>`);
    expect(shadow(el).querySelector("[part=card-distance]")?.textContent?.replace(/\s/g, " ")).toBe("à 2,3 km");
    expect(text(el)).toContain("Près de");
  });
});

describe("<broker-directory> sort menu", () => {
  test("enables distance only with Near and relevance only with a search, and sends the choice", async () => {
    const fetch = mockFetch(json(200, page([broker(1)])));
    restore = fetch.restore;
    const el = await mountDirectory();
    expect(sortOptions(el)).toEqual(["name", "rating", "reviews"]);
    expect(optionLabels(el, "sort")).toEqual(["Name (A–Z)", "Best rated", "Most reviewed", "Nearest", "Best match"]);
    expect(params(fetch.calls[0]).sort).toBeUndefined(); // name is the server's default

    fill(shadow(el), "sort", "rating");
    await until(() => fetch.calls.length === 2);
    expect(params(fetch.calls[1]).sort).toBe("rating");

    fill(shadow(el), "near", "M5V 3L9");
    await until(() => sortOptions(el).includes("distance"));
    expect(sortOptions(el)).toEqual(["name", "rating", "reviews", "distance"]);
    fill(shadow(el), "sort", "distance");
    await until(() => params(fetch.calls.at(-1)).sort === "distance");
    expect(params(fetch.calls.at(-1)).near).toBe("M5V 3L9");

    fill(shadow(el), "q", "maple");
    await until(() => sortOptions(el).includes("relevance"));
    fill(shadow(el), "sort", "relevance");
    await until(() => params(fetch.calls.at(-1)).sort === "relevance");
  });

  test("a first Near value sorts nearest first, unless the visitor chose another order", async () => {
    const fetch = mockFetch(json(200, page([broker(1)])));
    restore = fetch.restore;
    const el = await mountDirectory();
    fill(shadow(el), "near", "M5V 3L9");
    await until(() => fetch.calls.length === 2);
    expect(params(fetch.calls[1])).toMatchObject({ near: "M5V 3L9", sort: "distance" });
    await el.updateComplete;
    expect(shadow(el).querySelector<HTMLSelectElement>("[name=sort]")!.value).toBe("distance");

    fill(shadow(el), "near", "");
    await until(() => fetch.calls.length === 3);
    fill(shadow(el), "sort", "rating");
    await until(() => fetch.calls.length === 4);
    fill(shadow(el), "near", "M5V");
    await until(() => fetch.calls.length === 5);
    expect(params(fetch.calls[4])).toMatchObject({ near: "M5V", sort: "rating" });
  });

  test("clearing the field a sort needs falls back to name: a refused sort is never sent", async () => {
    const fetch = mockFetch(json(200, page([broker(1)])));
    restore = fetch.restore;
    const el = await mountDirectory();
    fill(shadow(el), "near", "M5V");
    await until(() => sortOptions(el).includes("distance"));
    fill(shadow(el), "sort", "distance");
    await until(() => params(fetch.calls.at(-1)).sort === "distance");
    const before = fetch.calls.length;
    fill(shadow(el), "near", "");
    await until(() => fetch.calls.length === before + 1);
    expect(params(fetch.calls.at(-1))).toEqual({ facets: "province,insuranceType" });
    expect(fetch.calls.length).toBe(before + 1);
    await el.updateComplete;
    expect(sortOptions(el)).toEqual(["name", "rating", "reviews"]);
    expect(shadow(el).querySelector<HTMLSelectElement>("[name=sort]")!.value).toBe("name");
    // No call of the whole test asked for a sort without what it needs.
    for (const call of fetch.calls) {
      const p = params(call);
      if (p.sort === "distance") expect(p.near).toBeTruthy();
      if (p.sort === "relevance") expect(p.q).toBeTruthy();
    }
  });
});

describe("<broker-directory> Show more", () => {
  test("appends the next page, moves focus to its first card, and goes away at the end", async () => {
    const fetch = mockFetch((call) => {
      const n = Number(call.url.searchParams.get("page") ?? 1);
      return json(200, n === 1 ? page([broker(1), broker(2)], 5) : n === 2 ? page([broker(3), broker(4)], 5) : page([broker(5)], 5));
    });
    restore = fetch.restore;
    const el = await mountDirectory(`<broker-directory api-key="k" api-base="https://d.example" limit="2"></broker-directory>`);
    const cards = () => [...shadow(el).querySelectorAll("[part=card-name]")].map((n) => n.textContent?.trim());
    expect(cards()).toEqual(["Broker 1", "Broker 2"]);
    expect(text(el)).toContain("Showing 2 of 5 brokers.");

    shadow(el).querySelector<HTMLButtonElement>("[part~=show-more]")!.click();
    await until(() => cards().length === 4);
    expect(params(fetch.calls[1])).toEqual({ page: "2", limit: "2" }); // counts are not asked again
    expect(cards()).toEqual(["Broker 1", "Broker 2", "Broker 3", "Broker 4"]);
    await until(() => shadow(el).activeElement?.textContent === "Broker 3");
    expect(text(el)).toContain("Showing 4 of 5 brokers.");

    expect(shadow(el).querySelector("[part~=show-more]")?.textContent?.trim()).toBe("Show more");
    shadow(el).querySelector<HTMLButtonElement>("[part~=show-more]")!.click();
    await until(() => cards().length === 5);
    expect(params(fetch.calls[2]).page).toBe("3");
    expect(shadow(el).querySelector("[part~=show-more]")).toBeNull();
    await until(() => shadow(el).querySelector("[aria-live]")?.textContent === "Showing 5 of 5 brokers.");
  });

  test("a new filter starts again from page 1", async () => {
    const fetch = mockFetch((call) => json(200, page([broker(Number(call.url.searchParams.get("page") ?? 1))], 3)));
    restore = fetch.restore;
    const el = await mountDirectory();
    shadow(el).querySelector<HTMLButtonElement>("[part~=show-more]")!.click();
    await until(() => shadow(el).querySelectorAll("[part=card]").length === 2);
    fill(shadow(el), "province", "QC");
    await until(() => params(fetch.calls.at(-1)).province === "QC");
    expect(params(fetch.calls.at(-1)).page).toBeUndefined();
    await until(() => shadow(el).querySelectorAll("[part=card]").length === 1);
  });
});

describe("<broker-directory> facet counts", () => {
  test("asks for province and insurance-type counts and shows them beside the options, 0 for the others", async () => {
    const facets = {
      province: [{ value: "ON", count: 80 }, { value: "QC", count: 1234 }],
      insuranceType: [{ value: "Auto", count: 194 }, { value: "Commercial", count: 149 }],
    };
    const fetch = mockFetch(json(200, page([broker(1)], 1, facets)));
    restore = fetch.restore;
    const el = await mountDirectory();
    expect(params(fetch.calls[0]).facets).toBe("province,insuranceType");
    const provinces = optionLabels(el, "province");
    expect(provinces[0]).toBe("Anywhere in Canada");
    expect(provinces).toContain("Ontario (80)");
    expect(provinces).toContain("Quebec (1,234)");
    expect(provinces).toContain("Alberta (0)");
    const types = optionLabels(el, "insuranceType");
    expect(types.slice(0, 3)).toEqual(["All insurance types", "Auto (194)", "Home (0)"]);
    // A line beyond the quote form's six, from the counts, is offered too.
    expect(types).toContain("Commercial (149)");
    // An option counted 0 stays selectable.
    expect(shadow(el).querySelector<HTMLOptionElement>("[name=province] option[value=AB]")!.disabled).toBe(false);
    fill(shadow(el), "insuranceType", "Commercial");
    await until(() => params(fetch.calls.at(-1)).insuranceType === "Commercial");
  });

  test("French labels with French number formats", async () => {
    restore = mockFetch(json(200, page([broker(1)], 1, { province: [{ value: "QC", count: 1234 }] }))).restore;
    const el = await mountDirectory(`<broker-directory api-key="k" api-base="https://d.example" lang="fr"></broker-directory>`);
    expect(optionLabels(el, "province").map((l) => l?.replace(/\s/g, " "))).toContain("Québec (1 234)");
  });
});

describe("<broker-directory> a 422 from the server", () => {
  const refusal = {
    error: "near: the forward sortation area X9Z is not in our postal-code data; try a neighbouring area or latitude,longitude",
    issues: [{ path: "near", message: "the forward sortation area X9Z is not in our postal-code data; try a neighbouring area or latitude,longitude" }],
  };

  test("shows the server's message beside the field it names, keeps the filters, and announces it", async () => {
    const fetch = mockFetch((call) => (call.url.searchParams.get("near") === "X9Z" ? json(422, refusal) : json(200, page([broker(1)]))));
    restore = fetch.restore;
    const el = await mountDirectory();
    fill(shadow(el), "near", "X9Z");
    const near = shadow(el).querySelector<HTMLInputElement>("[name=near]")!;
    await until(() => near.getAttribute("aria-invalid") === "true");
    const error = shadow(el).getElementById(`${near.id}-error`)!;
    expect(error.textContent).toBe(refusal.issues[0]!.message);
    expect(near.getAttribute("aria-describedby")).toContain(error.id);
    expect(error.closest(".field")).toBe(near.closest(".field"));
    expect(shadow(el).querySelector("[name=q]")).not.toBeNull();
    expect(text(el)).toContain("Correct the field marked above to see brokers.");
    expect(shadow(el).querySelector("[part=card]")).toBeNull();
    await until(() => shadow(el).querySelector("[aria-live]")?.textContent?.includes("X9Z"));

    // Fixing the field clears the message and brings the cards back.
    fill(shadow(el), "near", "");
    await until(() => shadow(el).querySelector("[part=card]"));
    expect(near.getAttribute("aria-invalid")).toBeNull();
    expect(shadow(el).querySelector("[part=error]")).toBeNull();
  });

  test("a message about no control of the widget still shows, as the server said it", async () => {
    restore = mockFetch(json(422, { error: "limit: must be a whole number from 1 to 50", issues: [{ path: "limit", message: "must be a whole number from 1 to 50" }] })).restore;
    const el = await mount<BrokerDirectory>(TAG);
    await until(() => shadow(el).querySelector("[part=problem]"));
    expect(text(el)).toContain("Server message: must be a whole number from 1 to 50");
  });
});
