/**
 * Serialized answers of directory reads, valid for one directory version and bounded in bytes.
 * A hit skips the procedure pipeline (input parsing, the query, output validation and JSON
 * encoding) but never admission: the key, its origin rules and its rate limit are checked on
 * every request, and only callers holding the route's scope are served from here.
 */
export class ResponseCache {
  private readonly bodies = new Map<string, string>();
  private version = -1;
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string, version: number): string | undefined {
    if (version !== this.version) return undefined;
    const body = this.bodies.get(key);
    if (body !== undefined) {
      this.bodies.delete(key);
      this.bodies.set(key, body);
    }
    return body;
  }

  set(key: string, version: number, body: string): void {
    if (version !== this.version) {
      this.bodies.clear();
      this.bytes = 0;
      this.version = version;
    }
    if (body.length * 2 > this.maxBytes / 16) return; // one answer never takes a large share
    const previous = this.bodies.get(key);
    if (previous !== undefined) this.bytes -= previous.length * 2;
    this.bodies.set(key, body);
    this.bytes += body.length * 2; // UTF-16 in memory
    for (const [oldKey, oldBody] of this.bodies) {
      if (this.bytes <= this.maxBytes) break;
      this.bodies.delete(oldKey);
      this.bytes -= oldBody.length * 2;
    }
  }
}
