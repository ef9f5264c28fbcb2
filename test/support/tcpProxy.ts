import type { Socket, TCPSocketListener } from "bun";

/**
 * A TCP relay to a server (PostgreSQL in the tests) that a test can cut and restore, to play
 * "the database went away" without stopping a shared server: stop() closes the listener and
 * every relayed connection, start() listens again on the same port.
 */
export class TcpProxy {
  private listener: TCPSocketListener<{ upstream?: Socket<unknown>; pending: Uint8Array[] }> | undefined;
  private readonly open = new Set<Socket<unknown>>();
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  start(): void {
    const proxy = this;
    this.listener = Bun.listen<{ upstream?: Socket<unknown>; pending: Uint8Array[] }>({
      hostname: "127.0.0.1",
      port: this.port,
      socket: {
        open(client) {
          client.data = { pending: [] };
          proxy.open.add(client as Socket<unknown>);
          void Bun.connect({
            hostname: proxy.targetHost,
            port: proxy.targetPort,
            socket: {
              open(upstream) {
                proxy.open.add(upstream);
                client.data.upstream = upstream;
                for (const chunk of client.data.pending.splice(0)) upstream.write(chunk);
              },
              data: (_upstream, chunk) => void client.write(chunk),
              close: () => void client.end(),
              error: () => void client.end(),
            },
          }).catch(() => client.end());
        },
        data(client, chunk) {
          if (client.data.upstream) client.data.upstream.write(chunk);
          else client.data.pending.push(new Uint8Array(chunk));
        },
        close(client) {
          proxy.open.delete(client as Socket<unknown>);
          client.data.upstream?.end();
        },
      },
    });
    this.port = this.listener.port;
  }

  stop(): void {
    this.listener?.stop(true);
    this.listener = undefined;
    for (const socket of this.open) socket.end();
    this.open.clear();
  }

  /** The URL with its host and port replaced by this relay's. */
  urlFor(url: string): string {
    const relayed = new URL(url);
    relayed.hostname = "127.0.0.1";
    relayed.port = String(this.port);
    return relayed.href;
  }
}
