/**
 * What the webhook outbox adds to a lead's write (issue 28: under 15 % of lead throughput), apart
 * from HTTP: 20,000 lead inserts through LeadStore in turns of 30 (group commit pays one COMMIT
 * per turn, as under the bench's load), into a workspace without endpoints and one with an
 * endpoint wanting lead.created; then, for the latter, what the deliverer's fan-out of those
 * events costs per event (src/storage/stores/webhookFanout.ts); rounds alternate, medians
 * printed. Seconds to run:
 *
 *   bun scripts/bench/outboxCost.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeDatabase, openDatabase } from "../../src/storage/sqlite/database.ts";
import { migrate } from "../../src/storage/sqlite/migrate.ts";
import { SqliteExecutor } from "../../src/storage/sqlite/sqliteExecutor.ts";
import { LeadStore } from "../../src/storage/stores/leadStore.ts";
import { WebhookFanout } from "../../src/storage/stores/webhookFanout.ts";
import { newEventId } from "../../src/storage/stores/webhookOutbox.ts";
import { storedLead } from "../../test/support/storedLead.ts";
import { median } from "./median.ts";

const N = 20_000;
const TURN = 30;
const ROUNDS = 5;

const dir = mkdtempSync(join(tmpdir(), "outbox-cost-"));
const db = openDatabase(join(dir, "bench.db"));
migrate(db);
for (const ws of ["plain", "hooked"]) db.$client.run(`INSERT INTO workspaces (id, name, created_at) VALUES ('${ws}', '${ws}', 0)`);
db.$client.run(
  "INSERT INTO webhook_endpoints (id, workspace_id, url, events, secret, created_at, updated_at) VALUES ('we_1', 'hooked', 'https://example.com/hook', '[\"lead.created\"]', 'whsec_x', 0, 0)",
);
const store = new LeadStore(SqliteExecutor.of(db));
const fanout = new WebhookFanout(SqliteExecutor.of(db));
let made = 0;

const perOp: Record<string, number[]> = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const workspaceId of ["plain", "hooked"]) {
    const startedAt = performance.now();
    for (let done = 0; done < N; done += TURN) {
      const turn = Array.from({ length: TURN }, () => storedLead(workspaceId, made++, { createdAt: Date.now() }));
      await Promise.all(turn.map((lead) => store.insert(lead, { event: { id: newEventId(lead.createdAt), workspaceId, type: "lead.created", data: { ...lead }, createdAt: lead.createdAt } })));
    }
    (perOp[workspaceId] ??= []).push(((performance.now() - startedAt) * 1000) / N);
  }
  const fannedAt = performance.now();
  while ((await fanout.run()) > 0);
  (perOp["fan-out"] ??= []).push(((performance.now() - fannedAt) * 1000) / N);
}
for (const [name, values] of Object.entries(perOp)) {
  console.log(`${name.padEnd(8)} ${median(values).toFixed(1).padStart(6)} µs ${name === "fan-out" ? "an event" : "a lead  "}  (rounds: ${values.map((v) => v.toFixed(1)).join(", ")})`);
}
closeDatabase(db);
rmSync(dir, { recursive: true, force: true });
