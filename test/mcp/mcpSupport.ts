import type { TestServer } from "../support/server.ts";

/** What every MCP client sends on a POST (Streamable HTTP). */
export const MCP_HEADERS = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };

export interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body, or undefined when it is empty or not JSON. */
  json: any;
}

/** POSTs one raw body (an object is JSON-encoded, a string sent as is) to /mcp. */
export async function postMcp(
  server: TestServer,
  body: unknown,
  options: { key?: string; headers?: Record<string, string>; method?: string; path?: string } = {},
): Promise<RawAnswer> {
  const response = await server.request(options.path ?? "/mcp", {
    method: options.method ?? "POST",
    key: options.key,
    headers: { ...MCP_HEADERS, ...options.headers },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

export const MODERN = "2026-07-28";

/** params._meta of a 2026-07-28 request. */
export function modernMeta(version = MODERN) {
  return {
    "io.modelcontextprotocol/protocolVersion": version,
    "io.modelcontextprotocol/clientInfo": { name: "raw-test", version: "1.0.0" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
}

/** The headers a 2026-07-28 client mirrors from its body. */
export function modernHeaders(method: string, name?: string, version = MODERN): Record<string, string> {
  return { "MCP-Protocol-Version": version, "Mcp-Method": method, ...(name === undefined ? {} : { "Mcp-Name": name }) };
}

export const AUTO_QUOTE = {
  insuranceType: "Auto",
  province: "ON",
  postalCode: "M5V 2T6",
  details: { vehicleYear: 2020, vehicleMake: "Toyota", vehicleModel: "RAV4", driverAge: 35, cleanRecord: true },
};
