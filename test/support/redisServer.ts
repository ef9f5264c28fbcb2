import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./freePort.ts";
import { childExit } from "./childExit.ts";

export interface RunningRedis {
  url: string;
  stop(): Promise<void>;
  /** SIGSTOP: the server hangs with its connections open (accepted, never answered), as a frozen VM or a stuck disk does. */
  freeze(): void;
  /** SIGCONT: it answers again, starting with what waited. */
  thaw(): void;
}

/**
 * A real redis-server (Debian's package; Valkey speaks the same protocol) on a free loopback
 * port with a throwaway directory and no persistence, started for one test file.
 * `scripts/ensure-redis.sh` (run before `npm test`) installs it when missing.
 */
export async function startRedis(port?: number): Promise<RunningRedis> {
  const dir = mkdtempSync(join(tmpdir(), "broker-directory-redis-"));
  port ??= await freePort();
  const proc = Bun.spawn(["redis-server", "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!text.includes("Ready to accept connections")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`redis-server exited before accepting connections:\n${text}`);
    text += decoder.decode(value);
  }
  void (async () => {
    while (!(await reader.read()).done);
  })();
  return {
    url: `redis://127.0.0.1:${port}`,
    freeze: () => proc.kill("SIGSTOP"),
    thaw: () => proc.kill("SIGCONT"),
    async stop() {
      proc.kill("SIGCONT");
      proc.kill("SIGTERM");
      await childExit(proc);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
