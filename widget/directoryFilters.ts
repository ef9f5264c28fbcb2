import { html } from "lit";
import { facetCount, SORTS, type FilterField } from "./discovery.ts";
import { QUOTE_LINES } from "./fields.ts";
import { renderField } from "./formField.ts";
import { formatNumber } from "./format.ts";
import { lineLabel, type Lang, type Translate } from "./i18n.ts";
import { PROVINCES } from "./provinces.ts";
import type { BrokerSort, FacetCounts } from "./types.ts";

/** What the directory's filter form shows: the texts as typed, the applied choices, counts and 422 messages. */
export interface FiltersView {
  t: Translate;
  language: Lang;
  qText: string;
  nearText: string;
  province: string;
  insuranceType: string;
  sort: BrokerSort;
  sorts: readonly BrokerSort[];
  facets: FacetCounts | undefined;
  errors: Partial<Record<FilterField, string>>;
}

/**
 * "Ontario (80)": the count of brokers matching every other filter. Every option stays listed
 * and selectable; one no broker matches reads "(0)". Before counts arrive, names alone.
 */
function counted(view: FiltersView, facet: "province" | "insuranceType", value: string, label: string): string {
  const n = facetCount(view.facets, facet, value);
  return n === undefined ? label : view.t("withCount", { label, n: formatNumber(view.language, n) });
}

/** The quote lines first (in their usual order), then any other line a broker offers, then the page's choice. */
export function insuranceTypeOptions(facets: FacetCounts | undefined, selected: string): string[] {
  const byKey = new Map<string, string>();
  for (const line of [...QUOTE_LINES, ...(facets?.insuranceType ?? []).map((c) => c.value), selected]) {
    if (line && !byKey.has(line.toLowerCase())) byKey.set(line.toLowerCase(), line);
  }
  return [...byKey.values()];
}

export function renderDirectoryFilters(view: FiltersView) {
  const { t, language, errors } = view;
  const selectedType = insuranceTypeOptions(view.facets, view.insuranceType).find((l) => l.toLowerCase() === view.insuranceType.toLowerCase()) ?? "";
  return html`
    ${renderField({ name: "q", control: "text", type: "search", label: t("search"), hint: t("searchHint"), value: view.qText, error: errors.q })}
    ${renderField({
      name: "near",
      control: "text",
      label: t("near"),
      hint: t("nearHint"),
      value: view.nearText,
      error: errors.near,
      autocomplete: "postal-code",
    })}
    ${renderField({
      name: "province",
      control: "select",
      label: t("province"),
      value: view.province,
      error: errors.province,
      options: [
        { value: "", label: t("allProvinces") },
        ...PROVINCES.map((p) => ({ value: p.code, label: counted(view, "province", p.code, language === "fr" ? p.fr : p.en) })),
      ],
    })}
    ${renderField({
      name: "insuranceType",
      control: "select",
      label: t("insuranceType"),
      value: selectedType,
      error: errors.insuranceType,
      options: [
        { value: "", label: t("allTypes") },
        ...insuranceTypeOptions(view.facets, view.insuranceType).map((line) => ({
          value: line,
          label: counted(view, "insuranceType", line, lineLabel(t, line)),
        })),
      ],
    })}
    ${renderField({
      name: "sort",
      control: "select",
      label: t("sortBy"),
      value: view.sort,
      error: errors.sort,
      // Every order is listed (the visitor learns Nearest exists); those the server would refuse are disabled.
      options: SORTS.map((sort) => ({ value: sort, label: t(`sort.${sort}`), disabled: !view.sorts.includes(sort) })),
    })}
  `;
}
