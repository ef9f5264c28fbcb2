/**
 * A result already serialized as JSON (a tool result from the cache, see toolCall): the
 * envelope splices its text in as it is instead of serializing the object again. Only
 * results that go out as they are (the 2025 era: no fields added) are handed over this way.
 */
export class SerializedResult {
  constructor(readonly json: string) {}
}

/**
 * The JSON of a tool's successful result `{content: [{type: "text", text}], structuredContent}`
 * from the structured content's JSON text alone: the same bytes as JSON.stringify of that
 * object, with the content serialized once instead of twice.
 */
export function toolResultJson(structuredJson: string): string {
  return `{"content":[{"type":"text","text":${JSON.stringify(structuredJson)}}],"structuredContent":${structuredJson}}`;
}
