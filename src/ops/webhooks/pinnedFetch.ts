import { lookup } from "node:dns/promises";
import { addressAllowed, addressKind, hostOf, isLoopbackName, refusedAddressWords, type AddressKind } from "../../domain/webhooks/endpointAddress.ts";

/**
 * One POST to a webhook endpoint, safe against server-side request forgery (issue 28):
 *
 * 1. The host is resolved here (every address, `dns.lookup` with `all`), and the request is
 *    refused when any address is not public (loopback aside when the operator allows it): a
 *    name that resolves to the private network, to this server or to the metadata service is
 *    never sent to, whatever registration saw.
 * 2. The connection goes to the address that was checked, not to the name: the URL is rewritten
 *    to the IP, the `Host` header keeps the name, and for https Bun's `tls.serverName` keeps SNI
 *    and certificate verification on the name (the certificate must be valid for it). So a DNS
 *    answer that changes between the check and the connection (DNS rebinding) cannot move the
 *    request elsewhere.
 * 3. Redirects are not followed (`redirect: "manual"`): a 3xx is a failed attempt, so a public
 *    endpoint cannot bounce the request to a private one.
 * 4. One deadline covers the lookup, the connection and reading the answer; at most
 *    `maxBodyBytes` of the body are read (then the stream is cancelled), and connections are
 *    not kept for reuse, so no other workspace's request rides on one.
 */

export interface PinnedRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  allowLoopback: boolean;
  signal: AbortSignal;
  maxBodyBytes: number;
}

export interface PinnedResponse {
  status: number;
  /** The first maxBodyBytes of the body (fewer when it was shorter). */
  body: Uint8Array;
}

/** A request the guard refused before anything was sent. */
export class AddressRefused extends Error {}

/** How names are resolved: node's resolver by default, replaceable in tests. */
export type Resolve = (name: string) => Promise<string[]>;

const systemResolve: Resolve = async (name) => (await lookup(name, { all: true, verbatim: true })).map((a) => a.address);

/** The addresses the request may go to, first the one to use; throws AddressRefused when any is forbidden. */
export async function checkedAddresses(url: URL, allowLoopback: boolean, resolve: Resolve = systemResolve): Promise<string[]> {
  const host = hostOf(url);
  if ("ip" in host) {
    if (!addressAllowed(host.kind, allowLoopback)) throw new AddressRefused(`refused: ${url.hostname} is ${refusedAddressWords(host.kind as Exclude<AddressKind, "public">)}`);
    return [host.ip];
  }
  if (isLoopbackName(host.name) && !allowLoopback) throw new AddressRefused(`refused: ${host.name} is ${refusedAddressWords("loopback")}`);
  const addresses = await resolve(host.name);
  if (addresses.length === 0) throw new AddressRefused(`${host.name} resolves to no address`);
  for (const address of addresses) {
    const kind = addressKind(address) ?? "reserved";
    if (!addressAllowed(kind, allowLoopback)) {
      // The address itself is not told: the workspace would learn how our network names resolve.
      throw new AddressRefused(`refused: ${host.name} resolves to ${refusedAddressWords(kind as Exclude<AddressKind, "public">)}`);
    }
  }
  return addresses;
}

/** Sends the POST to the checked address of the URL's host; see the file's comment. */
export async function pinnedPost(request: PinnedRequest, resolve?: Resolve): Promise<PinnedResponse> {
  const url = new URL(request.url);
  const signal = request.signal;
  const addresses = await abortable(checkedAddresses(url, request.allowLoopback, resolve), signal);
  const address = addresses[0]!;
  const target = new URL(url.href);
  target.hostname = address.includes(":") ? `[${address}]` : address;
  const host = hostOf(url);
  const response = await fetch(target, {
    method: "POST",
    headers: { ...request.headers, host: url.host },
    body: request.body,
    redirect: "manual",
    signal,
    keepalive: false,
    // SNI and the certificate check stay on the name the workspace registered.
    ...(url.protocol === "https:" && "name" in host ? { tls: { serverName: host.name } } : {}),
  });
  return { status: response.status, body: await readAtMost(response, request.maxBodyBytes) };
}

/** The first `max` bytes of the body; the rest is never read. */
async function readAtMost(response: Response, max: number): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < max) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  const all = new Uint8Array(Math.min(size, max));
  let at = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, all.length - at);
    all.set(part, at);
    at += part.length;
    if (at >= all.length) break;
  }
  return all;
}

/** The promise, or the signal's reason when it aborts first (a resolver has no signal of its own). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
