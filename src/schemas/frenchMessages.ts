/**
 * The French of the field messages our schemas declare, each written beside its English once:
 * `{ error: said("is required", "est obligatoire") }`. The English stays what every caller
 * reads by default (the schema gets exactly the English string back); the French is read only
 * when a request asks for French (src/adapters/frenchIssues.ts).
 *
 * The map is filled only while modules load and schemas are built, from literals in our source
 * and templates of constants (a maximum, a list of enum values): never from outside input, so
 * its size is bounded by the source. A message that quotes outside input carries its French on
 * the issue itself instead (`params: french(…)` on a custom issue), never here.
 */
const FRENCH = new Map<string, string>();
/** English messages declared twice with different French (the first is kept): the test asks for none. */
const CONFLICTS = new Set<string>();

/** Records `fr` as the French of `en` and returns `en`, for a schema's `error` option. */
export function said(en: string, fr: string): string {
  const known = FRENCH.get(en);
  if (known === undefined) FRENCH.set(en, fr);
  else if (known !== fr) CONFLICTS.add(en);
  return en;
}

/** English messages given two different French texts (the test keeps this empty). */
export function conflictingMessages(): readonly string[] {
  return [...CONFLICTS];
}

/** The French registered for an English message, if any. */
export function frenchOfDeclared(en: string): string | undefined {
  return FRENCH.get(en);
}

/** Every declared message and its French (for the test that keeps the registry whole). */
export function declaredMessages(): ReadonlyMap<string, string> {
  return FRENCH;
}

/**
 * The `params` of a custom issue whose message quotes outside input: its French, made where the
 * English is (`ctx.addIssue({ code: "custom", message, params: french(fr) })`).
 */
export function french(fr: string): { fr: string } {
  return { fr };
}
