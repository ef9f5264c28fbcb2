/**
 * The thirteen provinces and territories as the widget needs them: code, names, and the
 * first letters of their postal codes. A mirror of src/domain/canada.json (without the cities,
 * which would cost bundle bytes for nothing); test/widget/rules.test.ts checks they agree.
 */
export interface WidgetProvince {
  code: string;
  en: string;
  fr: string;
  letters: string;
}

export const PROVINCES: readonly WidgetProvince[] = [
  { code: "AB", en: "Alberta", fr: "Alberta", letters: "T" },
  { code: "BC", en: "British Columbia", fr: "Colombie-Britannique", letters: "V" },
  { code: "MB", en: "Manitoba", fr: "Manitoba", letters: "R" },
  { code: "NB", en: "New Brunswick", fr: "Nouveau-Brunswick", letters: "E" },
  { code: "NL", en: "Newfoundland and Labrador", fr: "Terre-Neuve-et-Labrador", letters: "A" },
  { code: "NS", en: "Nova Scotia", fr: "Nouvelle-Écosse", letters: "B" },
  { code: "NT", en: "Northwest Territories", fr: "Territoires du Nord-Ouest", letters: "X" },
  { code: "NU", en: "Nunavut", fr: "Nunavut", letters: "X" },
  { code: "ON", en: "Ontario", fr: "Ontario", letters: "KLMNP" },
  { code: "PE", en: "Prince Edward Island", fr: "Île-du-Prince-Édouard", letters: "C" },
  { code: "QC", en: "Quebec", fr: "Québec", letters: "GHJ" },
  { code: "SK", en: "Saskatchewan", fr: "Saskatchewan", letters: "S" },
  { code: "YT", en: "Yukon", fr: "Yukon", letters: "Y" },
];

export function findProvince(code: string | undefined): WidgetProvince | undefined {
  const upper = code?.trim().toUpperCase();
  return PROVINCES.find((p) => p.code === upper);
}
