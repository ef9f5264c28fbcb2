import { useDom } from "./setup-dom.ts";
import { afterEach, describe, expect, test } from "bun:test";
import { mountAll } from "../../widget/loader.ts";
import { json, mockFetch } from "./helpers.ts";

useDom();

let restore = () => {};
afterEach(() => {
  restore();
  document.body.innerHTML = "";
});

// Scripts inserted through innerHTML never execute, so the page can be described safely.
const page = (html: string) => {
  document.body.innerHTML = html;
};

describe("script-tag loader", () => {
  test("finds its own async tag by src, fills #broker-widget, derives the API base and maps data-*", () => {
    restore = mockFetch(json(200, { data: [], total: 0 })).restore;
    page(`<div id="broker-widget"></div>
      <script async src="https://directory.example:8443/widget.js?v=3" data-key="brk_abc" data-type="directory" data-theme="auto"
        data-province="ON" data-city="Toronto" data-insurance-type="Auto" data-limit="6" data-lang="fr" data-link="/b/{slug}"></script>`);
    const [element] = mountAll();
    expect(element?.tagName.toLowerCase()).toBe("broker-directory");
    expect(element?.parentElement?.id).toBe("broker-widget");
    const attrs = Object.fromEntries([...element!.attributes].map((a) => [a.name, a.value]));
    expect(attrs).toMatchObject({
      "api-base": "https://directory.example:8443",
      "api-key": "brk_abc",
      theme: "auto",
      province: "ON",
      city: "Toronto",
      "insurance-type": "Auto",
      limit: "6",
      lang: "fr",
      link: "/b/{slug}",
    });
  });

  test("creates the container right after the script when it is missing", () => {
    restore = mockFetch(json(200, {})).restore;
    page(`<p>before</p><script async src="/widget.js" data-key="k" data-type="quote"></script><p>after</p>`);
    const [element] = mountAll();
    const script = document.querySelector("script")!;
    expect(script.nextElementSibling?.id).toBe("broker-widget");
    expect(script.nextElementSibling?.firstElementChild).toBe(element!);
    expect(element!.tagName.toLowerCase()).toBe("broker-quote-form");
    expect(element!.getAttribute("api-base")).toBe(location.origin);
  });

  test("several widgets on one page, each with its own target; a second run mounts nothing twice", () => {
    restore = mockFetch((call) =>
      call.url.pathname.endsWith("/reviews") ? json(200, { data: { broker: {}, reviews: [] } }) : json(200, { data: [], total: 0 }),
    ).restore;
    page(`<section id="a"></section><section id="b"></section>
      <script async src="https://d.example/widget.js" data-key="k" data-type="quote" data-target="#a"></script>
      <script async src="https://d.example/widget.js" data-key="k" data-type="reviews" data-broker="x" data-target="#b"></script>
      <script async src="https://d.example/widget.js" data-key="k" data-type="directory"></script>
      <script async src="https://d.example/widget.js" data-key="k" data-type="directory"></script>
      <script src="https://elsewhere.example/not-widget.js"></script>`);
    const first = mountAll();
    expect(first.map((e) => `${e.parentElement!.id || "(new)"}:${e.tagName.toLowerCase()}`)).toEqual([
      "a:broker-quote-form",
      "b:broker-reviews",
      "broker-widget:broker-directory",
      "(new):broker-directory",
    ]);
    expect(mountAll()).toEqual([]);
    expect(document.querySelectorAll("broker-directory")).toHaveLength(2);
  });

  test("a data-target that matches nothing gets created with that id", () => {
    restore = mockFetch(json(200, {})).restore;
    page(`<script async src="https://d.example/widget.js" data-key="k" data-type="quote" data-target="#quote-here"></script>`);
    mountAll();
    expect(document.getElementById("quote-here")?.firstElementChild?.tagName.toLowerCase()).toBe("broker-quote-form");
  });

  test("an unknown data-type leaves a visible note for the site owner", () => {
    page(`<div id="broker-widget"></div><script async src="https://d.example/widget.js" data-key="k" data-type="calendar"></script>`);
    expect(mountAll()).toEqual([]);
    expect(document.getElementById("broker-widget")?.textContent).toContain("data-type must be quote, directory or reviews");
  });

  test("defining the elements twice does not throw (script included twice)", async () => {
    const { defineOnce } = await import("../../widget/base.ts");
    const first = customElements.get("broker-directory");
    expect(() => defineOnce("broker-directory", class extends HTMLElement {})).not.toThrow();
    expect(customElements.get("broker-directory")).toBe(first!);
  });
});
