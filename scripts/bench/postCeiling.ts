/**
 * What a POST with a small JSON body costs Bun itself, apart from anything of ours: the bare
 * Bun.serve ceiling (scripts/bench/ceilingServer.ts) answering the same bytes to a GET, to a
 * POST of the MCP scenario's body (6) that it never reads, and to one it reads whole
 * (`--read-body`), in turns. For reading scenario (6)'s share of the GET ceiling.
 *
 *   bun scripts/bench/postCeiling.ts [--seconds 4] [--turns 3]
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { freePort, REPO, startProcess, stopProcess } from "./appProcess.ts";
import { ensureWrk, runWrk, type LoadRequest } from "./wrk.ts";
import { median } from "./median.ts";

const { values } = parseArgs({ options: { seconds: { type: "string", default: "4" }, turns: { type: "string", default: "3" } } });
ensureWrk();
const dir = mkdtempSync(join(tmpdir(), "post-ceiling-"));
const bodyFile = join(dir, "body.json");
// About the size of scenario (6)'s answer.
writeFileSync(bodyFile, JSON.stringify({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "x".repeat(9000) }] } }));
const call = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search_brokers", arguments: { province: "ON", limit: 20 } } });
const get: LoadRequest = { method: "GET", path: "/mcp", headers: { Authorization: "Bearer x" } };
const post: LoadRequest = { method: "POST", path: "/mcp", headers: { Authorization: "Bearer x", "Content-Type": "application/json", Accept: "application/json, text/event-stream" }, body: call };
const load = { durationSeconds: Number(values.seconds), connections: 32, threads: 1 };

async function serve(readBody: boolean) {
  const port = await freePort();
  return startProcess([process.execPath, join(REPO, "scripts/bench/ceilingServer.ts"), bodyFile, String(port), ...(readBody ? ["--read-body"] : [])], { port, cwd: dir, logFile: join(dir, `ceiling-${readBody}.log`) });
}
const plain = await serve(false);
const reading = await serve(true);
const rates: Record<string, number[]> = { "GET": [], "POST, body unread": [], "POST, body read": [] };
try {
  for (let turn = 0; turn < Number(values.turns); turn++) {
    rates["GET"]!.push((await runWrk(plain.url, [get], load)).requestsPerSecond);
    rates["POST, body unread"]!.push((await runWrk(plain.url, [post], load)).requestsPerSecond);
    rates["POST, body read"]!.push((await runWrk(reading.url, [post], load)).requestsPerSecond);
  }
} finally {
  await Promise.all([stopProcess(plain), stopProcess(reading)]);
  rmSync(dir, { recursive: true, force: true });
}
const ceiling = median(rates["GET"]!);
for (const [name, v] of Object.entries(rates)) console.log(`${name.padEnd(18)} ${median(v).toLocaleString("en-CA").padStart(8)} req/s  ${Math.round((median(v) / ceiling) * 100)} % of GET`);
