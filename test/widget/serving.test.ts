import { describe, expect, test } from "bun:test";
import { gunzipSync } from "bun";
import { demoPageHandler } from "../../src/adapters/static/demoPage.ts";
import { widgetAssetHandler } from "../../src/adapters/static/widgetAsset.ts";

describe("GET /widget.js", () => {
  const code = "(()=>{console.log('widget')})();";
  const handle = widgetAssetHandler(code);
  const get = (headers: Record<string, string> = {}, method = "GET") => handle(new Request("http://d.example/widget.js", { method, headers }), { requestId: "test" });

  test("serves the code as JavaScript, public, cacheable, CORS-open, with a strong ETag", async () => {
    const res = get();
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/javascript; charset=utf-8");
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=300");
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(res.headers.get("ETag")).toMatch(/^"[\w-]{20,}"$/);
    expect(await res.text()).toBe(code);
  });

  test("304 when If-None-Match matches (also weak-prefixed and in a list)", () => {
    const etag = get().headers.get("ETag")!;
    expect(get({ "If-None-Match": etag }).status).toBe(304);
    expect(get({ "If-None-Match": `"other", W/${etag}` }).status).toBe(304);
    expect(get({ "If-None-Match": '"other"' }).status).toBe(200);
  });

  test("gzip for clients that accept it, with its own ETag", async () => {
    const res = get({ "Accept-Encoding": "gzip, deflate, br" });
    expect(res.headers.get("Content-Encoding")).toBe("gzip");
    expect(res.headers.get("Vary")).toBe("Accept-Encoding");
    expect(res.headers.get("ETag")).not.toBe(get().headers.get("ETag"));
    expect(new TextDecoder().decode(gunzipSync(new Uint8Array(await res.arrayBuffer())))).toBe(code);
    expect(get({ "Accept-Encoding": "gzip;q=0" }).headers.get("Content-Encoding")).toBeNull();
  });

  test("a different bundle gets a different ETag; HEAD has no body; POST is refused", async () => {
    const other = widgetAssetHandler(code + " ").call(null, new Request("http://d.example/widget.js"), { requestId: "test" });
    expect(other.headers.get("ETag")).not.toBe(get().headers.get("ETag"));
    expect(await get({}, "HEAD").text()).toBe("");
    expect(get({}, "POST").status).toBe(405);
  });
});

describe("GET /demo", () => {
  test("uses the demo key, shows three widgets in light and dark, under a strict CSP", async () => {
    const res = await demoPageHandler({ embedKey: () => "brk_demo" })(new Request("http://localhost:3000/demo"));
    expect(res.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    const csp = res.headers.get("Content-Security-Policy")!;
    expect(csp).toContain("script-src 'self' 'nonce-");
    expect(csp).not.toContain("unsafe-inline");
    const html = await res.text();
    for (const type of ["quote", "directory", "reviews"]) expect(html).toContain(`data-type="${type}" data-theme="light"`);
    for (const tag of ["broker-quote-form", "broker-directory", "broker-reviews"]) expect(html).toMatch(new RegExp(`<${tag} api-key="brk_demo" theme="dark"`));
    expect(html).toContain('src="http://localhost:3000/widget.js" data-key="brk_demo"');
  });

  test("?key= wins, and whatever is reflected is escaped", async () => {
    const evil = `"><script>alert(1)</script>`;
    const url = `http://localhost:3000/demo?key=${encodeURIComponent(evil)}&broker=${encodeURIComponent(evil)}`;
    const html = await (await demoPageHandler({ embedKey: () => "brk_demo" })(new Request(url))).text();
    expect(html).not.toContain("brk_demo");
    expect(html).not.toContain("<script>alert(1)");
    expect(html).toContain("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  test("without any key it explains how to pass one", async () => {
    const html = await (await demoPageHandler({ embedKey: () => undefined })(new Request("http://localhost:3000/demo"))).text();
    expect(html).toContain("needs an embed key");
    expect(html).toContain("/demo?key=brk_");
    expect(html).not.toContain("widget.js");
  });

  test("?lang=fr sets the page and widget language", async () => {
    const html = await (await demoPageHandler({ embedKey: () => "k" })(new Request("http://localhost:3000/demo?lang=fr"))).text();
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain('data-lang="fr"');
  });
});
