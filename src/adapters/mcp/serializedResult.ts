import type { ResultBytes } from "./resultBytes.ts";

const utf8 = new TextDecoder();

/**
 * A result already serialized as JSON (a tool result, see toolCall): the envelope splices it
 * in as it is instead of serializing the object again. A cached result is held as the UTF-8
 * bytes the response sends (ResultBytes), so a hit is never encoded again; `text()`
 * gives the JSON text for the rarer answers that need one (a batch, a 2026-07-28 result). Only
 * results that go out as they are (the 2025 era: no fields added) are handed over this way.
 */
export class SerializedResult {
  constructor(readonly body: string | ResultBytes) {}

  text(): string {
    return typeof this.body === "string" ? this.body : utf8.decode(this.body.bytes);
  }
}

/**
 * The JSON of a tool's successful result `{content: [{type: "text", text}], structuredContent}`
 * from the structured content's JSON text alone: the same bytes as JSON.stringify of that
 * object, with the content serialized once instead of twice.
 */
export function toolResultJson(structuredJson: string): string {
  return `{"content":[{"type":"text","text":${JSON.stringify(structuredJson)}}],"structuredContent":${structuredJson}}`;
}
