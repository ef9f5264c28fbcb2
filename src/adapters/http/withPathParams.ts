/**
 * A JSON object body with the path's ids added (path wins), for procedures whose input holds
 * both; anything else is passed on unchanged for the procedure's schema to refuse in its words.
 */
export function withPathParams(body: unknown, params: Record<string, string>): never {
  const isObject = typeof body === "object" && body !== null && !Array.isArray(body);
  return (isObject ? { ...body, ...params } : body) as never;
}
