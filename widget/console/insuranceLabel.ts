import { INSURANCE_LINES } from "../../src/domain/insuranceLines.ts";
import { lineLabel, translator, type Lang } from "../i18n.ts";

/**
 * An insurance type as the console shows it, in the console's language: the widget's names of
 * the lines ("Tenant" → "Locataire"), whatever case the lead was sent in; a type we have no
 * name for (the list is open-ended) is shown as it was sent.
 */
export function insuranceLabel(lang: Lang, type: string): string {
  const line = INSURANCE_LINES.find((known) => known.toLowerCase() === type.trim().toLowerCase());
  return line ? lineLabel(translator(lang), line) : type;
}
