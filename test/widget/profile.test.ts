/**
 * Issue 29: a directory card opens the broker's profile in a dialog (focus in and back,
 * Escape, #slug on the history so Back closes it), with what a visitor needs to reach the
 * broker, and "Ask this broker for a quote" leading to a lead that names the broker.
 */
import { useDom } from "./setup-dom.ts";
import { afterEach, describe, expect, test } from "bun:test";
import type { BrokerDirectory } from "../../widget/directory.ts";
import type { BrokerProfileDialog } from "../../widget/profileDialog.ts";
import type { BrokerProfileView } from "../../widget/brokerProfile.ts";
import type { BrokerCard, BrokerProfile } from "../../widget/types.ts";
import { json, mockFetch, mount, shadow, text, until, type Call } from "./helpers.ts";

useDom();

// Typed with the API's own types: a renamed or retyped field fails the typecheck test.
const card: BrokerCard = {
  id: "12",
  name: "Maple Leaf Insurance",
  slug: "maple-leaf-insurance",
  city: "London",
  province: "ON",
  averageRating: 4.5,
  reviewCount: 2,
  isVerified: true,
  photoUrl: "https://d.example/p.svg",
  insuranceLines: ["Auto", "Home"],
};
const profile: BrokerProfile = {
  ...card,
  description: "Family brokerage <b>since</b> 1990.",
  email: "hello@maple.example",
  phone: "+15195550100",
  website: "https://maple.example/",
  foundingYear: 1990,
  teamSize: "11-50",
  licenseNumber: null,
  rating: { averageRating: 4.5, totalReviews: 2, distribution: { "1": 0, "2": 0, "3": 0, "4": 1, "5": 1 } },
  locations: [
    { id: "1", address: "1 Dundas St", city: "London", province: "ON", postalCode: "N6A 1A1", phone: null, latitude: 42.98, longitude: -81.24, isPrimary: true, mapUrl: "https://www.openstreetmap.org/?mlat=42.98000&mlon=-81.24000#map=16/42.98000/-81.24000" },
    { id: "2", address: "2 King St W", city: "Toronto", province: "ON", postalCode: "M5H 1A1", phone: "+14165550100", latitude: 43.65, longitude: -79.38, isPrimary: false, mapUrl: "javascript:alert(1)" },
  ],
  specialties: ["Classic cars"],
  languages: ["English", "French"],
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
};
const reviewsAnswer = {
  data: {
    broker: { id: "12", name: card.name, slug: card.slug, averageRating: 4.5, reviewCount: 2, isVerified: true, photoUrl: card.photoUrl, distribution: profile.rating.distribution },
    reviews: [{ id: "r1", rating: 5, title: "Great", content: "Helpful.", authorName: "Ann B.", createdAt: "2026-02-01T00:00:00.000Z" }],
    total: 2,
  },
};

/** Answers by path, as the server would. */
function server(call: Call): Response {
  const path = call.url.pathname;
  if (path === "/api/v1/embed/brokers") return json(200, { data: [card], total: 1 });
  if (path === `/api/v1/embed/brokers/${card.slug}`) return json(200, { data: profile });
  if (path === "/api/v1/embed/reviews") return json(200, reviewsAnswer);
  return json(404, { error: "no" });
}

let restore = () => {};
afterEach(() => {
  restore();
  history.replaceState(null, "", location.pathname);
});

const dialogOf = (el: BrokerDirectory) => shadow(el).querySelector("broker-profile-dialog") as BrokerProfileDialog;
const profileOf = (el: BrokerDirectory) => shadow(dialogOf(el)).querySelector("broker-profile") as BrokerProfileView | null;
const deepActive = (): Element | null => {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
};

async function openProfile() {
  const fetch = mockFetch(server);
  restore = fetch.restore;
  const el = await mount<BrokerDirectory>(`<broker-directory api-key="brk_e" api-base="https://d.example"></broker-directory>`);
  const link = await until(() => shadow(el).querySelector<HTMLAnchorElement>("[part=card-link]"));
  link.focus();
  link.click();
  const view = await until(() => profileOf(el));
  await until(() => shadow(view).querySelector("[part=profile]"));
  return { el, link, view, fetch };
}

describe("the broker profile", () => {
  test("a card opens a modal dialog named after the broker, #slug goes on the history, focus moves in", async () => {
    const { el, fetch } = await openProfile();
    const dialog = shadow(dialogOf(el)).querySelector("dialog")!;
    expect(dialog.open).toBe(true);
    expect(dialog.getAttribute("aria-label")).toBe("Profile of Maple Leaf Insurance");
    expect(location.hash).toBe("#maple-leaf-insurance");
    expect(deepActive()?.getAttribute("part")).toContain("close");
    const paths = fetch.calls.map((c) => c.url.pathname);
    expect(paths).toContain("/api/v1/embed/brokers/maple-leaf-insurance");
    expect(fetch.calls.every((c) => c.headers.get("Authorization") === "Bearer brk_e")).toBe(true);
  });

  test("it shows description (as text), Verified, every office with a map link, tel:, website, lines and languages", async () => {
    const { view } = await openProfile();
    const root = shadow(view);
    const t = text(view);
    expect(t).toContain("Family brokerage <b>since</b> 1990.");
    expect(root.querySelector("b")).toBeNull();
    expect(root.querySelector("[part=verified]")).not.toBeNull();
    expect(t).toContain("1 Dundas St");
    expect(t).toContain("2 King St W");
    expect(t).toContain("Main office");
    const links = [...root.querySelectorAll("a")].map((a) => a.getAttribute("href"));
    expect(links).toContain("tel:+15195550100");
    expect(links).toContain("tel:+14165550100");
    expect(links).toContain("https://maple.example/");
    expect(links).toContain(profile.locations[0]!.mapUrl);
    // A map link that is not http(s) is dropped, never made a link.
    expect(links).not.toContain("javascript:alert(1)");
    expect(root.querySelector("a[href^='tel:+15195550100']")?.getAttribute("aria-label")).toBe("Call 519-555-0100");
    expect(t).toContain("Auto, Home");
    expect(t).toContain("English, French");
    expect(t).toContain("Classic cars");
    // The rating breakdown and the reviews come from the inner reviews widget.
    const reviews = root.querySelector("broker-reviews")!;
    await until(() => shadow(reviews).querySelector("[part=review]"));
    expect(shadow(reviews).querySelectorAll("[part=histogram-bar]")).toHaveLength(5);
    expect(shadow(reviews).querySelector("[part~=show-more]")).not.toBeNull();
  });

  test("Escape closes it, focus returns to the card link, and the history entry goes (Back)", async () => {
    const { el, link } = await openProfile();
    const dialog = shadow(dialogOf(el)).querySelector("dialog")!;
    dialog.dispatchEvent(new Event("cancel", { cancelable: true }));
    await until(() => !dialog.open);
    await until(() => location.hash === "");
    expect(deepActive()).toBe(link);
  });

  test("Back closes it", async () => {
    const { el } = await openProfile();
    const dialog = shadow(dialogOf(el)).querySelector("dialog")!;
    history.back();
    await until(() => !dialog.open);
  });

  test("Ask this broker for a quote opens the quote form with the broker chosen", async () => {
    const { view } = await openProfile();
    shadow(view).querySelector<HTMLButtonElement>("[part~=ask-quote]")!.click();
    const form = await until(() => shadow(view).querySelector<HTMLElement & { broker?: string }>("broker-quote-form"));
    expect(form.getAttribute("broker")).toBe("maple-leaf-insurance");
    expect(form.getAttribute("province")).toBe("ON");
    expect(shadow(view).querySelector("[part~=ask-quote]")?.getAttribute("aria-expanded")).toBe("true");
  });

  test("in French", async () => {
    restore = mockFetch(server).restore;
    const el = await mount<BrokerDirectory>(`<broker-directory api-key="k" api-base="https://d.example" lang="fr"></broker-directory>`);
    (await until(() => shadow(el).querySelector<HTMLAnchorElement>("[part=card-link]"))).click();
    const view = await until(() => profileOf(el));
    await until(() => shadow(view).querySelector("[part=profile]"));
    expect(text(view)).toContain("Demander une soumission à ce courtier");
    expect(text(view)).toContain("Bureau principal");
    expect(shadow(dialogOf(el)).querySelector("dialog")!.getAttribute("aria-label")).toBe("Profil de Maple Leaf Insurance");
  });

  test("a host page's own link pattern is left alone: no dialog", async () => {
    restore = mockFetch(server).restore;
    const el = await mount<BrokerDirectory>(`<broker-directory api-key="k" api-base="https://d.example" link="/brokers/{slug}"></broker-directory>`);
    const link = await until(() => shadow(el).querySelector<HTMLAnchorElement>("[part=card-link]"));
    link.addEventListener("click", (e) => e.preventDefault()); // no navigation in the test
    link.click();
    await new Promise((r) => setTimeout(r, 20));
    expect(profileOf(el)).toBeNull();
  });
});

describe("a near card", () => {
  test("names the office its distance is measured to", async () => {
    restore = mockFetch(json(200, { data: [{ ...card, distanceKm: 2.3, nearestOffice: { city: "Toronto", province: "ON" } }], total: 1 })).restore;
    const el = await mount<BrokerDirectory>(`<broker-directory api-key="k" api-base="https://d.example"></broker-directory>`);
    const distance = await until(() => shadow(el).querySelector("[part=card-distance]"));
    expect(distance.textContent).toContain("2.3 km away · Toronto, ON office");
  });
});

describe("skeletons", () => {
  test("the directory shows one grey card per card to come, hidden from screen readers", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    restore = mockFetch(async () => {
      await held;
      return json(200, { data: [card], total: 1 });
    }).restore;
    const el = await mount<BrokerDirectory>(`<broker-directory api-key="k" api-base="https://d.example" limit="4"></broker-directory>`);
    const skeleton = await until(() => shadow(el).querySelector("[part~=skeleton]"));
    expect(skeleton.getAttribute("aria-hidden")).toBe("true");
    expect(skeleton.querySelectorAll(".card")).toHaveLength(4);
    release();
    await until(() => shadow(el).querySelector("[part=card]"));
    expect(shadow(el).querySelector("[part~=skeleton]")).toBeNull();
  });

  test("the default count is the server's default page", async () => {
    const { CARD_SKELETON_DEFAULT } = await import("../../widget/cardSkeleton.ts");
    const { EMBED_BROKERS_DEFAULT_LIMIT } = await import("../../src/router/embed/embedBrokers.ts");
    expect(CARD_SKELETON_DEFAULT).toBe(EMBED_BROKERS_DEFAULT_LIMIT);
  });
});
