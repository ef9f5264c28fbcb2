/**
 * Which addresses a webhook may be sent to (issue 28). Server-side request forgery is the main
 * risk of webhooks: a workspace names a URL and our server sends to it, so a URL must never reach
 * what only the server can (its own loopback, the private network, the cloud's metadata service).
 * Registration refuses at once what its text shows (this file); the deliverer checks every
 * address a name resolves to, just before it connects to the one it checked
 * (src/ops/webhooks/pinnedFetch.ts).
 */

/** What an IP address is, for sending: only `public` is ever sent to, and `loopback` when the operator allows it. */
export type AddressKind = "public" | "loopback" | "private" | "link-local" | "metadata" | "unspecified" | "multicast" | "reserved";

/** Cloud metadata services, named so the refusal says what it protects. */
const METADATA_V4 = new Set(["169.254.169.254", "169.254.170.2", "100.100.100.200"]);
const METADATA_V6 = new Set(["fd00:ec2:0:0:0:0:0:254"]);

/** The four numbers of a dotted-decimal IPv4 address, or undefined. */
function ipv4Octets(text: string): number[] | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  const octets = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : Number.NaN));
  return octets.every((o) => o >= 0 && o <= 255) ? octets : undefined;
}

/** The eight 16-bit groups of an IPv6 address (an embedded IPv4 tail included), or undefined. */
function ipv6Groups(text: string): number[] | undefined {
  let body = text.toLowerCase();
  const zone = body.indexOf("%");
  if (zone >= 0) body = body.slice(0, zone);
  const lastColon = body.lastIndexOf(":");
  if (body.slice(lastColon + 1).includes(".")) {
    // ::ffff:127.0.0.1 is ::ffff:7f00:1: the dotted tail written as its two groups.
    const v4 = ipv4Octets(body.slice(lastColon + 1));
    if (!v4) return undefined;
    body = `${body.slice(0, lastColon + 1)}${((v4[0]! << 8) | v4[1]!).toString(16)}:${((v4[2]! << 8) | v4[3]!).toString(16)}`;
  }
  const halves = body.split("::");
  if (halves.length > 2) return undefined;
  const parse = (s: string) => (s === "" ? [] : s.split(":").map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : Number.NaN)));
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...rest];
  return groups.every((g) => Number.isInteger(g)) ? groups : undefined;
}

function kindOfV4([a, b, c, d]: number[]): AddressKind {
  const text = `${a}.${b}.${c}.${d}`;
  if (METADATA_V4.has(text)) return "metadata";
  if (a === 0) return "unspecified";
  if (a === 127) return "loopback";
  if (a === 10 || (a === 172 && b! >= 16 && b! <= 31) || (a === 192 && b === 168)) return "private";
  if (a === 100 && b! >= 64 && b! <= 127) return "private"; // carrier-grade NAT, 100.64.0.0/10
  if (a === 169 && b === 254) return "link-local";
  if (a! >= 224 && a! <= 239) return "multicast";
  if (a! >= 240) return "reserved"; // 240.0.0.0/4 and the broadcast address
  if ((a === 192 && b === 0 && (c === 0 || c === 2)) || (a === 198 && (b === 18 || b === 19)) || (a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113)) {
    return "reserved"; // IETF protocol assignments, benchmarking and documentation ranges
  }
  return "public";
}

function kindOfV6(g: number[]): AddressKind {
  const text = g.map((x) => x.toString(16)).join(":");
  if (METADATA_V6.has(text)) return "metadata";
  const v4Tail = () => [g[6]! >> 8, g[6]! & 0xff, g[7]! >> 8, g[7]! & 0xff];
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(8)) return "unspecified";
  if (zeroUpTo(7) && g[7] === 1) return "loopback";
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d): the IPv4 address is what is reached.
  if (zeroUpTo(5) && (g[5] === 0xffff || g[5] === 0)) return kindOfV4(v4Tail());
  // NAT64 (64:ff9b::/96): a gateway forwards to the embedded IPv4 address.
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return kindOfV4(v4Tail());
  // 6to4 (2002::/16): the IPv4 address is in the next 32 bits.
  if (g[0] === 0x2002) return kindOfV4([g[1]! >> 8, g[1]! & 0xff, g[2]! >> 8, g[2]! & 0xff]);
  if ((g[0]! & 0xfe00) === 0xfc00) return "private"; // unique local, fc00::/7
  if ((g[0]! & 0xffc0) === 0xfe80) return "link-local";
  if ((g[0]! & 0xffc0) === 0xfec0) return "private"; // site-local, deprecated
  if ((g[0]! & 0xff00) === 0xff00) return "multicast";
  if (g[0] === 0x2001 && (g[1] === 0xdb8 || g[1] === 0)) return "reserved"; // documentation, Teredo
  if (g[0] === 0x100 && zeroUpTo(4)) return "reserved"; // discard-only, 100::/64
  return "public";
}

/** What the IP address is (dotted IPv4 or IPv6, without brackets), or undefined when the text is not one. */
export function addressKind(ip: string): AddressKind | undefined {
  const v4 = ipv4Octets(ip);
  if (v4) return kindOfV4(v4);
  if (!ip.includes(":")) return undefined;
  const v6 = ipv6Groups(ip);
  return v6 ? kindOfV6(v6) : undefined;
}

/** Whether a connection to this address is allowed: public addresses, and loopback when the operator allows it. */
export function addressAllowed(kind: AddressKind, allowLoopback: boolean): boolean {
  return kind === "public" || (kind === "loopback" && allowLoopback);
}

/** The URL host as an address or a name: brackets off an IPv6 literal, a final dot off a name. */
export function hostOf(url: URL): { ip: string; kind: AddressKind } | { name: string } {
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  const kind = addressKind(host);
  if (kind) return { ip: host, kind };
  return { name: host.replace(/\.$/, "").toLowerCase() };
}

/** `localhost` and its subdomains always name this machine (RFC 6761), whatever DNS says. */
export function isLoopbackName(name: string): boolean {
  return name === "localhost" || name.endsWith(".localhost");
}

const KIND_WORDS: Record<Exclude<AddressKind, "public">, string> = {
  loopback: "a loopback address (this server itself)",
  private: "a private network address",
  "link-local": "a link-local address",
  metadata: "a cloud metadata address",
  unspecified: "an unspecified address",
  multicast: "a multicast address",
  reserved: "a reserved address",
};

const KIND_WORDS_FR: Record<Exclude<AddressKind, "public">, string> = {
  loopback: "une adresse de bouclage (ce serveur lui-même)",
  private: "une adresse de réseau privé",
  "link-local": "une adresse de lien local",
  metadata: "une adresse de métadonnées infonuagiques",
  unspecified: "une adresse non spécifiée",
  multicast: "une adresse de multidiffusion",
  reserved: "une adresse réservée",
};

const URL_PROBLEMS = {
  absolute: { problem: "must be an absolute URL such as https://hooks.example.ca/broker-directory", fr: "doit être une URL absolue comme https://hooks.example.ca/broker-directory" },
  https: { problem: "must be an https:// URL", fr: "doit être une URL https://" },
  credentials: {
    problem: "must not carry a user name or password: authenticate with the signature",
    fr: "ne doit pas contenir de nom d’utilisateur ni de mot de passe : authentifiez-vous par la signature",
  },
} as const;

const refusedAddress = (kind: Exclude<AddressKind, "public">) => ({ problem: `must not point at ${KIND_WORDS[kind]}`, fr: `ne doit pas viser ${KIND_WORDS_FR[kind]}` });

/** Why an address is refused, in the words of an error message. */
export function refusedAddressWords(kind: Exclude<AddressKind, "public">): string {
  return KIND_WORDS[kind];
}

/**
 * Checks an endpoint URL as registration can, from its text alone: `https://`, or `http://` to a
 * loopback host when the operator allows it (WEBHOOKS_ALLOW_HTTP_LOOPBACK, for tests and
 * development); no credentials; no literal address that is not public (loopback aside, with the
 * flag). Answers the normalised URL or why it is refused.
 */
export function checkEndpointUrl(text: string, allowHttpLoopback: boolean): { url: string } | { problem: string; fr: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return URL_PROBLEMS.absolute;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return URL_PROBLEMS.https;
  if (url.username || url.password) return URL_PROBLEMS.credentials;
  const host = hostOf(url);
  const loopback = "ip" in host ? host.kind === "loopback" : isLoopbackName(host.name);
  if ("ip" in host && host.kind !== "public" && !(loopback && allowHttpLoopback)) {
    return refusedAddress(host.kind);
  }
  if ("name" in host && loopback && !allowHttpLoopback) return refusedAddress("loopback");
  if (url.protocol === "http:" && !(loopback && allowHttpLoopback)) return URL_PROBLEMS.https;
  url.hash = "";
  return { url: url.href };
}
