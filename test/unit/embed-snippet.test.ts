import { expect, test } from "bun:test";
import { embedSnippet } from "../../widget/console/embedSnippet.ts";

test("the console's snippet is the README's: the container, then one async script tag", () => {
  expect(embedSnippet({ widgetUrl: "https://brokers.example.ca/widget.js", key: "brk_abc", type: "quote", theme: "dark" })).toBe(
    '<div id="broker-widget"></div>\n<script async src="https://brokers.example.ca/widget.js" data-key="brk_abc" data-type="quote" data-theme="dark"></script>',
  );
});

test("only a reviews widget names its broker", () => {
  expect(embedSnippet({ widgetUrl: "https://b.example/widget.js", key: "k", type: "reviews", theme: "auto", broker: "acme-insurance" })).toEndWith('data-theme="auto" data-broker="acme-insurance"></script>');
  expect(embedSnippet({ widgetUrl: "https://b.example/widget.js", key: "k", type: "directory", theme: "auto", broker: "acme-insurance" })).not.toContain("data-broker");
});

test("a pasted key is text, never markup", () => {
  const snippet = embedSnippet({ widgetUrl: "https://b.example/widget.js", key: '"><script>alert(1)</script>', type: "directory", theme: "light" });
  expect(snippet).toContain('data-key="&quot;>&lt;script>alert(1)&lt;/script>"');
  expect(snippet.match(/<script/g)).toHaveLength(1);
});
