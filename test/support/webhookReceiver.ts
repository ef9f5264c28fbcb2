import type { Server } from "bun";

/** One request a test receiver got. */
export interface ReceivedHook {
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

/**
 * A webhook endpoint on this machine's loopback (the server runs with
 * WEBHOOKS_ALLOW_HTTP_LOOPBACK): records every request, and answers as `answer` says for its
 * path (200 by default), so a test can make an endpoint fail N times, answer 410 or redirect.
 */
export class WebhookReceiver {
  readonly received: ReceivedHook[] = [];
  private readonly server: Server<undefined>;
  private readonly answers = new Map<string, (hook: ReceivedHook, count: number) => Response | Promise<Response>>();

  constructor() {
    this.server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: async (request) => {
        const path = new URL(request.url).pathname;
        const hook = { path, headers: Object.fromEntries(request.headers), body: await request.text(), at: Date.now() };
        this.received.push(hook);
        const answer = this.answers.get(path);
        return answer ? answer(hook, this.at(path).length) : new Response("ok");
      },
    });
  }

  /** The URL of a path on this receiver. */
  url(path: string): string {
    return `http://127.0.0.1:${this.server.port}${path}`;
  }

  /** How the path answers; `count` is how many requests it has had, this one included. */
  answer(path: string, respond: (hook: ReceivedHook, count: number) => Response | Promise<Response>): void {
    this.answers.set(path, respond);
  }

  /** The requests the path got, in order. */
  at(path: string): ReceivedHook[] {
    return this.received.filter((h) => h.path === path);
  }

  /** The parsed bodies the path got. */
  events(path: string): { id: string; type: string; createdAt: string; data: Record<string, unknown> }[] {
    return this.at(path).map((h) => JSON.parse(h.body));
  }

  stop(): void {
    void this.server.stop(true);
  }
}
