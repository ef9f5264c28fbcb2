/**
 * The machine's ceiling for the benchmark: a bare Bun.serve that answers every request with
 * one prebuilt JSON body (the bytes of scenario 1's answer, so the response size matches),
 * no routing, no auth, no database. `bun scripts/bench/ceilingServer.ts BODY_FILE PORT [--read-body]`
 * (with --read-body it reads each request's body whole first: scripts/bench/postCeiling.ts).
 */
const [bodyFile, port, readBody] = process.argv.slice(2);
if (!bodyFile || !port) {
  console.error("usage: ceilingServer.ts BODY_FILE PORT [--read-body]");
  process.exit(2);
}
const body = new Uint8Array(await Bun.file(bodyFile).arrayBuffer());
const headers = { "Content-Type": "application/json; charset=utf-8" };

const server = Bun.serve({
  port: Number(port),
  hostname: "127.0.0.1",
  fetch: readBody === "--read-body" ? async (request) => (await request.arrayBuffer(), new Response(body, { headers })) : () => new Response(body, { headers }),
});
console.log(`ceiling listening on ${server.url}`);
process.on("SIGTERM", () => {
  void server.stop(true);
  process.exit(0);
});
