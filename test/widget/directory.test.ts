import { useDom } from "./setup-dom.ts";
import { afterEach, describe, expect, test } from "bun:test";
import "../../widget/directory.ts";
import type { BrokerDirectory } from "../../widget/directory.ts";
import type { BrokerCard } from "../../widget/types.ts";
import { fill, json, mockFetch, mount, shadow, text, until } from "./helpers.ts";

useDom();

// Typed with the API's own type: a renamed or retyped field fails the typecheck test.
const broker = (over: Partial<BrokerCard> = {}): BrokerCard => ({
  id: "12",
  name: "Maple Leaf Insurance",
  slug: "maple-leaf-insurance",
  city: "Toronto",
  province: "ON",
  averageRating: 4.56,
  reviewCount: 23,
  isVerified: true,
  photoUrl: "https://directory.example/photos/maple.svg",
  insuranceLines: ["Auto", "Home"],
  ...over,
});

let restore = () => {};
afterEach(() => restore());

describe("<broker-directory>", () => {
  test("requests brokers with the attributes as filters and the key as bearer token", async () => {
    const fetch = mockFetch(json(200, { data: [broker()], total: 40 }));
    restore = fetch.restore;
    const el = await mount<BrokerDirectory>(
      `<broker-directory api-key="brk_test" api-base="https://directory.example/" province="on" city="Toronto" insurance-type="auto" limit="6"></broker-directory>`,
    );
    await until(() => shadow(el).querySelector("[part=card]"));
    expect(fetch.calls).toHaveLength(1);
    const call = fetch.calls[0]!;
    expect(call.method).toBe("GET");
    expect(call.url.origin + call.url.pathname).toBe("https://directory.example/api/v1/embed/brokers");
    expect(Object.fromEntries(call.url.searchParams)).toEqual({
      province: "ON",
      city: "Toronto",
      insuranceType: "Auto",
      limit: "6",
      facets: "province,insuranceType",
    });
    expect(call.headers.get("Authorization")).toBe("Bearer brk_test");
    expect(call.headers.get("Accept")).toBe("application/json");
  });

  test("renders a card: photo, name, place, stars with a text label, count and lines", async () => {
    restore = mockFetch(json(200, { data: [broker()], total: 40 })).restore;
    const el = await mount<BrokerDirectory>(`<broker-directory api-key="k" api-base="https://d.example"></broker-directory>`);
    const card = await until(() => shadow(el).querySelector("[part=card]"));
    expect(card.querySelector("img")?.getAttribute("src")).toBe("https://directory.example/photos/maple.svg");
    expect(card.querySelector("a")?.getAttribute("href")).toBe("#maple-leaf-insurance");
    const t = text(el);
    expect(t).toContain("Maple Leaf Insurance");
    expect(t).toContain("Toronto, ON");
    expect(t).toContain("4.56");
    expect(t).toContain("23 reviews");
    expect(t).toContain("Showing 1 of 40 brokers.");
    expect(card.querySelector("[role=img]")?.getAttribute("aria-label")).toBe("Rated 4.56 out of 5");
    expect([...card.querySelectorAll(".chips li")].map((li) => li.textContent)).toEqual(["Auto", "Home"]);
  });

  test("the link pattern and a cancelable broker-widget:select event", async () => {
    restore = mockFetch(json(200, { data: [broker()], total: 1 })).restore;
    const el = await mount<BrokerDirectory>(
      `<broker-directory api-key="k" api-base="https://d.example" link="/brokers/{slug}?from=widget"></broker-directory>`,
    );
    const link = await until(() => shadow(el).querySelector("a"));
    expect(link.getAttribute("href")).toBe("/brokers/maple-leaf-insurance?from=widget");
    const seen: CustomEvent[] = [];
    document.addEventListener("broker-widget:select", (e) => {
      seen.push(e as CustomEvent);
      e.preventDefault();
    }, { once: true });
    const click = new MouseEvent("click", { bubbles: true, composed: true, cancelable: true });
    link.dispatchEvent(click);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.bubbles && seen[0]!.composed).toBe(true);
    expect(seen[0]!.detail).toMatchObject({ kind: "broker", href: "/brokers/maple-leaf-insurance?from=widget", broker: { slug: "maple-leaf-insurance" } });
    // The host cancelled the select event, so the widget cancelled the navigation.
    expect(click.defaultPrevented).toBe(true);
  });

  test("changing a filter refetches, and the configured city is dropped for another province", async () => {
    const fetch = mockFetch(json(200, { data: [broker()], total: 1 }));
    restore = fetch.restore;
    const el = await mount<BrokerDirectory>(`<broker-directory api-key="k" api-base="https://d.example" province="ON" city="Toronto"></broker-directory>`);
    await until(() => shadow(el).querySelector("[part=card]"));
    fill(shadow(el), "province", "QC");
    await until(() => fetch.calls.length === 2);
    expect(Object.fromEntries(fetch.calls[1]!.url.searchParams)).toEqual({ province: "QC", facets: "province,insuranceType" });
    fill(shadow(el), "insuranceType", "Life");
    await until(() => fetch.calls.length === 3);
    expect(fetch.calls[2]!.url.searchParams.get("insuranceType")).toBe("Life");
  });

  test("filters are labelled controls in the same shadow root", async () => {
    restore = mockFetch(json(200, { data: [], total: 0 })).restore;
    const el = await mount<BrokerDirectory>(`<broker-directory api-key="k" api-base="https://d.example"></broker-directory>`);
    const controls = shadow(el).querySelectorAll("input, select");
    expect(controls.length).toBe(5);
    for (const control of controls) {
      expect(shadow(el).querySelector(`label[for="${control.id}"]`)).not.toBeNull();
    }
  });

  test("empty state", async () => {
    restore = mockFetch(json(200, { data: [], total: 0 })).restore;
    const el = await mount<BrokerDirectory>(`<broker-directory api-key="k" api-base="https://d.example"></broker-directory>`);
    await until(() => shadow(el).querySelector("[part=empty]"));
    expect(text(el)).toContain("No brokers match these filters.");
  });

  test("a loading state shows before the answer, inside a live region that existed first", async () => {
    let release = (_: Response) => {};
    restore = mockFetch(() => new Promise<Response>((r) => (release = r))).restore;
    const el = await mount<BrokerDirectory>(`<broker-directory api-key="k" api-base="https://d.example"></broker-directory>`);
    const live = shadow(el).querySelector("[aria-live=polite]");
    expect(live).not.toBeNull();
    expect(text(el)).toContain("Loading brokers…");
    release(json(200, { data: [broker()], total: 1 }));
    await until(() => shadow(el).querySelector("[part=card]"));
    await until(() => live!.textContent?.includes("Showing 1 of 1"));
    // Same node: the region was not replaced when the content arrived.
    expect(shadow(el).querySelector("[aria-live=polite]")).toBe(live);
  });

  test("French: strings, province names and number formats", async () => {
    restore = mockFetch(json(200, { data: [broker({ averageRating: 4.5, reviewCount: 1, insuranceLines: ["Home", "Life"] })], total: 1200 })).restore;
    const el = await mount<BrokerDirectory>(`<broker-directory api-key="k" api-base="https://d.example" lang="fr"></broker-directory>`);
    await until(() => shadow(el).querySelector("[part=card]"));
    const t = text(el);
    expect(t).toContain("Province ou territoire");
    expect(t).toContain("Colombie-Britannique");
    expect(t).toContain("4,5");
    expect(t).toContain("1 avis");
    expect(t).toMatch(/1\s200/);
    expect([...shadow(el).querySelectorAll(".chips li")].map((li) => li.textContent)).toEqual(["Habitation", "Vie"]);
    expect(shadow(el).querySelector("[part=verified]")?.textContent).toContain("Vérifié");
  });

  test("cards show the Verified badge only for verified brokers, and no stars without reviews", async () => {
    const brokers = [broker(), broker({ id: "13", slug: "quiet", name: "Quiet", isVerified: false, averageRating: 0, reviewCount: 0 })];
    restore = mockFetch(json(200, { data: brokers, total: 2 })).restore;
    const el = await mount<BrokerDirectory>(`<broker-directory api-key="k" api-base="https://d.example"></broker-directory>`);
    await until(() => shadow(el).querySelector("[part=card]"));
    const cards = [...shadow(el).querySelectorAll("[part=card]")];
    expect(cards[0]!.querySelector("[part=verified]")?.textContent).toContain("Verified");
    expect(cards[1]!.querySelector("[part=verified]")).toBeNull();
    expect(cards[1]!.querySelector("[part=stars]")).toBeNull();
    expect(cards[1]!.textContent).toContain("No reviews yet");
  });

  test("language defaults to <html lang>", async () => {
    restore = mockFetch(json(200, { data: [], total: 0 })).restore;
    document.documentElement.lang = "fr-CA";
    try {
      const el = await mount<BrokerDirectory>(`<broker-directory api-key="k" api-base="https://d.example"></broker-directory>`);
      await until(() => shadow(el).querySelector("[part=empty]"));
      expect(text(el)).toContain("Aucun courtier ne correspond");
    } finally {
      document.documentElement.lang = "";
    }
  });

  test("untrusted names render as text", async () => {
    restore = mockFetch(json(200, { data: [broker({ name: "<img src=x onerror=alert(1)>", city: "<b>x</b>" })], total: 1 })).restore;
    const el = await mount<BrokerDirectory>(`<broker-directory api-key="k" api-base="https://d.example"></broker-directory>`);
    const card = await until(() => shadow(el).querySelector("[part=card]"));
    expect(card.querySelectorAll("img")).toHaveLength(1); // the photo only
    expect(card.querySelector("b")).toBeNull();
    expect(card.textContent).toContain("<img src=x onerror=alert(1)>");
  });

  test("without a key it tells the site owner and makes no request", async () => {
    const fetch = mockFetch(json(200, { data: [], total: 0 }));
    restore = fetch.restore;
    const el = await mount<BrokerDirectory>(`<broker-directory api-base="https://d.example"></broker-directory>`);
    await until(() => shadow(el).querySelector("[part=problem]"));
    expect(text(el)).toContain("this widget needs a key");
    expect(fetch.calls).toHaveLength(0);
  });
});
