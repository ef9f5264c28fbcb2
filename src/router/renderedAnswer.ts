import type { Services } from "../services.ts";

/**
 * A directory read whose answer the directory may hold already written as JSON text (see
 * src/storage/search/renderedAnswers.ts): the bytes the procedure's answer is written as
 * (`JSON.stringify`, byte for byte), so an adapter that would only serialize the answer may send
 * them instead of calling the procedure, after the same admission and scope check as a cached
 * answer. Defined beside its procedure, which it must agree with.
 */
export interface RenderedAnswer {
  /**
   * The answer to `input` (as the adapter would hand it to the procedure), or undefined: invalid
   * input, nothing to answer, or nothing rendered; then call the procedure, which answers it in its words.
   * `parsed`, when given, is what the procedure's own input schema already made of `input` in
   * this request (as callProcedure takes it): a reader may use it rather than parse again.
   */
  read(services: Services, input: unknown, parsed?: unknown): Uint8Array<ArrayBuffer> | undefined;
  /**
   * Offers the JSON text of the procedure's answer to `input`, read from the directory at
   * `version` (taken before the call), for `read` to answer next time; for answers rendered as
   * they are first asked for rather than ahead of time.
   */
  keep?(services: Services, input: unknown, version: number, text: string): void;
}
