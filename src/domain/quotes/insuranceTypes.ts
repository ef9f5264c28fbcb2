import { QUOTE_LINES, type QuoteLine } from "./details.ts";
import { foldText } from "../text.ts";

/** How each quoted line is written in responses and in the carrier catalogue. */
export const LINE_LABELS: Record<QuoteLine, string> = {
  auto: "Auto",
  home: "Home",
  condo: "Condo",
  tenant: "Tenant",
  life: "Life",
  travel: "Travel",
};

export const QUOTE_LINE_LABELS: readonly string[] = QUOTE_LINES.map((line) => LINE_LABELS[line]);

// English labels, plus the French names a Québec page may send (case and accents ignored).
const byFoldedName = new Map<string, QuoteLine>([
  ...QUOTE_LINES.map((line) => [line, line] as const),
  ["automobile", "auto"],
  ["car", "auto"],
  ["habitation", "home"],
  ["copropriete", "condo"],
  ["locataire", "tenant"],
  ["renter", "tenant"],
  ["vie", "life"],
  ["voyage", "travel"],
]);

/** "auto", "AUTO", "Habitation" → the quoted line; undefined for anything else. */
export function resolveQuoteLine(text: string): QuoteLine | undefined {
  return byFoldedName.get(foldText(text));
}

export function unsupportedInsuranceTypeMessage(value: string): string {
  return (
    `${JSON.stringify(value.slice(0, 60))} is not an insurance type we quote. ` +
    `Use one of ${QUOTE_LINE_LABELS.join(", ")} (case-insensitive).`
  );
}

/** The same in French. */
export function unsupportedInsuranceTypeMessageFr(value: string): string {
  return (
    `${JSON.stringify(value.slice(0, 60))} n’est pas un type d’assurance pour lequel nous faisons des soumissions. ` +
    `Utilisez l’un de ${QUOTE_LINE_LABELS.join(", ")} (sans égard à la casse).`
  );
}
