import frCA from "zod/v4/locales/fr-CA.js";
import { GOT_PREFIX } from "../schemas/fieldErrors.ts";
import { frenchOfDeclared } from "../schemas/frenchMessages.ts";

/** What an issue keeps once final (zod's, or ours from invalidInput): enough to word it in French later. */
export interface IssueFacts {
  readonly code?: string;
  readonly message: string;
  readonly params?: Readonly<Record<string, unknown>>;
}

/** What describeIssues writes for an unknown key, in French. */
export const UNKNOWN_FIELD_FR = "n’est pas un champ connu";

const zodFrench = frCA().localeError;

/**
 * The French of one issue's message, decided here and only here, in this order:
 * 1. the French the issue carries (`params.fr`, set where a message quoting outside input is made);
 * 2. the French declared beside the English (said, src/schemas/frenchMessages.ts), the English
 *    possibly ending with got()'s quoted value, which is kept as it is;
 * 3. zod's own French for the issue's code (generic, but never English).
 */
export function frenchMessage(issue: IssueFacts): string {
  const carried = issue.params?.fr;
  if (typeof carried === "string") return carried;
  const declared = frenchOfDeclared(issue.message);
  if (declared !== undefined) return declared;
  // "must be a whole number from 1 to 100 (got 1000)": the declared part, then the value.
  for (let at = issue.message.indexOf(GOT_PREFIX); at > 0; at = issue.message.indexOf(GOT_PREFIX, at + 1)) {
    const head = frenchOfDeclared(issue.message.slice(0, at));
    if (head !== undefined) return head + issue.message.slice(at).replace(GOT_PREFIX, " (reçu : ");
  }
  return fallback(issue);
}

function fallback(issue: IssueFacts): string {
  // A final issue no longer has its input, which zod's wording of a wrong type reads.
  const expected = (issue as { expected?: unknown }).expected;
  if (issue.code === "invalid_type" && typeof expected === "string") return `doit être de type ${expected}`;
  try {
    const text = zodFrench(issue as never);
    if (typeof text === "string" && text !== "") return text;
  } catch {
    // An issue shaped unlike zod's: the generic sentence below.
  }
  return "Valeur invalide";
}
