/**
 * Issue 28: the operator registers, lists and deletes a workspace's webhook endpoints from the
 * CLI, with the API's checks: the secret printed once, an unsafe URL refused naming --url.
 */
import { afterAll, expect, test } from "bun:test";
import { runCli, tempDir } from "./cliHarness.ts";

const tmp = tempDir();
afterAll(() => tmp.remove());

test("webhooks create, list and delete; a private or http URL is refused; loopback only with WEBHOOKS_ALLOW_HTTP_LOOPBACK", async () => {
  const env = { DATABASE_PATH: tmp.path("hooks.db") };
  const refused = await runCli(["webhooks", "create", "--workspace", "acme", "--url", "https://10.0.0.1/hook", "--events", "lead.created"], env);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("--url must not point at a private network address");
  expect((await runCli(["webhooks", "create", "--workspace", "acme", "--url", "http://127.0.0.1:9/hook", "--events", "lead.created"], env)).code).toBe(1);
  const badEvent = await runCli(["webhooks", "create", "--workspace", "acme", "--url", "https://hooks.example.com/x", "--events", "lead.deleted"], env);
  expect(badEvent.code).toBe(2);
  expect(badEvent.stderr).toContain("--events");

  const made = await runCli(["webhooks", "create", "--workspace", "acme", "--url", "https://hooks.example.com/x", "--events", "lead.created,quote.created", "--description", "crm", "--json"], env);
  expect(made.code, made.stderr).toBe(0);
  const endpoint = JSON.parse(made.stdout) as { id: string; secret: string; events: string[] };
  expect(endpoint.secret).toMatch(/^whsec_/);
  expect(endpoint.events).toEqual(["lead.created", "quote.created"]);
  const loopback = await runCli(["webhooks", "create", "--workspace", "acme", "--url", "http://127.0.0.1:9/hook", "--events", "lead.created"], { ...env, WEBHOOKS_ALLOW_HTTP_LOOPBACK: "true" });
  expect(loopback.code, loopback.stderr).toBe(0);
  expect(loopback.stdout).toContain("whsec_");

  const listed = await runCli(["webhooks", "list", "--workspace", "acme", "--json"], env);
  const endpoints = JSON.parse(listed.stdout) as { id: string }[];
  expect(endpoints.map((e) => e.id)).toContain(endpoint.id);
  expect(listed.stdout).not.toContain("whsec_");
  expect((await runCli(["webhooks", "delete", endpoint.id, "--workspace", "acme"], env)).code).toBe(0);
  expect((await runCli(["webhooks", "delete", endpoint.id, "--workspace", "acme"], env)).code).toBe(1);
  expect((JSON.parse((await runCli(["webhooks", "list", "--workspace", "acme", "--json"], env)).stdout) as unknown[]).length).toBe(1);
}, 30_000); // ten CLI processes, each starting Bun and opening the database
