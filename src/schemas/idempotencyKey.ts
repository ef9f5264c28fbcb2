import { z } from "zod";
import { said } from "./frenchMessages.ts";

/** The request header that carries it on REST and /trpc (MCP's tools take the argument `idempotencyKey`). */
export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";
/** The answer header that says the body is the stored first answer, not a new one. */
export const IDEMPOTENT_REPLAYED_HEADER = "Idempotent-Replayed";
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/**
 * A client's idempotency key: 1 to 255 printable ASCII characters (space to `~`), so that it
 * fits a header as it is and a UUID, a ULID or an order number all do. Declared once: the
 * REST and tRPC header and MCP's argument are checked against it (src/router/idempotency.ts).
 */
export const idempotencyKeySchema = z
  .string({ error: said("must be text: 1 to 255 printable ASCII characters, e.g. a UUID", "doit être du texte : 1 à 255 caractères ASCII imprimables, p. ex. un UUID") })
  .min(1, { error: said("must not be empty: 1 to 255 printable ASCII characters, e.g. a UUID", "ne doit pas être vide : 1 à 255 caractères ASCII imprimables, p. ex. un UUID") })
  .max(MAX_IDEMPOTENCY_KEY_LENGTH, { error: said(`must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`, `doit compter au plus ${MAX_IDEMPOTENCY_KEY_LENGTH} caractères`) })
  .regex(/^[\x20-\x7e]*$/, { error: said("must be printable ASCII characters only (space to ~), e.g. a UUID", "ne doit contenir que des caractères ASCII imprimables (de l’espace à ~), p. ex. un UUID") })
  .describe(
    "Optional. A key of your choosing (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retry safe: the same key with the same arguments within 24 hours returns the first answer instead of creating another record.",
  );
