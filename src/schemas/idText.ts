import { z } from "zod";
import { said } from "./frenchMessages.ts";

type TypeError = NonNullable<Exclude<Parameters<typeof z.string>[0], string>>["error"];

/**
 * An id or slug as a caller copies it from an answer (a key's, a quote's, a lead's, a broker's
 * slug): text, trimmed, not empty, at most `max` characters. `typeError` says what was expected
 * when it is absent or not text, in the field's own words.
 */
export const idText = (typeError: TypeError, max = 64) =>
  z
    .string({ error: typeError })
    .trim()
    .min(1, { error: said("must not be empty", "ne doit pas être vide") })
    .max(max, { error: said(`must be at most ${max} characters`, `doit compter au plus ${max} caractères`) });
