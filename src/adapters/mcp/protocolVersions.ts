/**
 * The MCP revisions this endpoint speaks. Two eras share the endpoint:
 * - legacy (2025-03-26 … 2025-11-25): an `initialize` handshake negotiates the version, later
 *   requests carry it in the MCP-Protocol-Version header;
 * - modern (2026-07-28): no handshake, every request carries its version in `params._meta`.
 */
export const MODERN_VERSION = "2026-07-28";
export const LEGACY_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26"] as const;
export const LATEST_LEGACY_VERSION = LEGACY_VERSIONS[0];
/** What server/discover and UnsupportedProtocolVersion errors advertise, newest first. */
export const SUPPORTED_VERSIONS: readonly string[] = [MODERN_VERSION, ...LEGACY_VERSIONS];

/** The revision before the MCP-Protocol-Version header existed: assumed when it is absent. */
export const HEADERLESS_VERSION = "2025-03-26";
/** The only revision in which JSON-RPC batches were part of MCP. */
export const BATCH_VERSION = "2025-03-26";

/**
 * Legacy negotiation: the client's version when we speak it, else our latest. Echoing a
 * version we cannot serve, or always answering our latest, both break real clients.
 */
export function negotiateLegacyVersion(requested: string): string {
  return (LEGACY_VERSIONS as readonly string[]).includes(requested) ? requested : LATEST_LEGACY_VERSION;
}

export function isLegacyVersion(version: string): boolean {
  return (LEGACY_VERSIONS as readonly string[]).includes(version);
}

/** `_meta` keys of the modern era. */
export const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
export const META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
export const META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";
