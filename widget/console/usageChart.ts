import { css, html, LitElement, unsafeCSS, type PropertyDeclarations, type PropertyValues } from "lit";
import uPlot from "uplot";
import uPlotCss from "uplot/dist/uPlot.min.css" with { type: "text" };
import { defineOnce } from "./consoleElement.ts";
import { consoleTranslator, localeOf, type Lang } from "./i18n.ts";

export interface ChartSeries {
  label: string;
  values: number[];
}

/** Series colours readable on both palettes' backgrounds (3:1 for graphics). */
const COLOURS = ["#2f7ed8", "#c2410c", "#15803d", "#9333ea", "#b45309", "#0e7490", "#be185d", "#4d7c0f"];

/**
 * <bd-usage-chart>: a uPlot line chart of per-day counts inside this element's shadow root.
 * uPlot's stylesheet is bundled (never a CDN) and adopted as a constructed stylesheet, and uPlot
 * styles elements through the CSSOM only, so the console's CSP needs no 'unsafe-inline'. The
 * canvas is decorative for assistive technology: the page gives the same numbers as a table.
 */
export class BdUsageChart extends LitElement {
  static override properties: PropertyDeclarations = { days: { attribute: false }, series: { attribute: false }, lang: {}, label: {} };
  static override styles = [
    unsafeCSS(uPlotCss),
    css`
      /* Never wider than its card: a long key name in the legend wraps, and the plot scrolls within itself on a narrow phone. */
      :host { display: block; min-height: 280px; max-width: 100%; overflow-x: auto; }
      figure { margin: 0; }
      .u-legend { color: var(--_fg); font-size: 0.875rem; max-width: 100%; }
      .u-legend .u-series th { white-space: normal; overflow-wrap: anywhere; }
      .u-axis { color: var(--_muted); }
    `,
  ];
  declare days: string[];
  declare series: ChartSeries[];
  declare lang: Lang;
  declare label: string;
  private plot: uPlot | undefined;
  private readonly resize = new ResizeObserver(() => this.plot?.setSize(this.size()));

  constructor() {
    super();
    this.days = [];
    this.series = [];
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.resize.observe(this);
  }

  override disconnectedCallback(): void {
    this.resize.disconnect();
    this.plot?.destroy();
    this.plot = undefined;
    super.disconnectedCallback();
  }

  override render() {
    return html`<figure aria-label=${this.label}><div id="plot" aria-hidden="true"></div></figure>`;
  }

  private size() {
    // A little narrower than the host, so the last day's point is not cut at the edge.
    // 240 px at least: a 375 px phone leaves the chart's card about 300 px.
    return { width: Math.max(240, this.clientWidth - 16), height: 260 };
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (!changed.has("days") && !changed.has("series") && !changed.has("lang")) return;
    this.plot?.destroy();
    const target = this.renderRoot.querySelector<HTMLElement>("#plot");
    if (!target) return;
    const stroke = getComputedStyle(this).getPropertyValue("--_border").trim() || "#767f8a";
    const text = getComputedStyle(this).getPropertyValue("--_muted").trim() || "#4f5864";
    const dayFormat = new Intl.DateTimeFormat(localeOf(this.lang), { month: "short", day: "numeric", timeZone: "UTC" });
    const axis = { stroke: text, grid: { stroke, width: 0.5 }, ticks: { stroke, width: 0.5 } };
    const x = this.days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
    this.plot = new uPlot(
      {
        ...this.size(),
        // Room on the right for the last day's label, centred on the plot's edge.
        padding: [12, 24, 0, 0],
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"),
        series: [
          // uPlot's own "Time" is English only: the legend names the day in the console's language.
          { label: consoleTranslator(this.lang)("usage.day"), value: (_u, v) => (v == null ? "" : dayFormat.format(new Date(v * 1000))) },
          ...this.series.map((s, i) => ({ label: s.label, stroke: COLOURS[i % COLOURS.length], width: 2, points: { show: true, size: 5 } })),
        ],
        axes: [
          { ...axis, values: (_u, splits) => splits.map((v) => dayFormat.format(new Date(v * 1000))) },
          { ...axis, values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? v.toLocaleString(localeOf(this.lang)) : "")) },
        ],
        scales: { y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.1))] } },
      },
      [x, ...this.series.map((s) => s.values)],
      target,
    );
  }
}

defineOnce("bd-usage-chart", BdUsageChart);
