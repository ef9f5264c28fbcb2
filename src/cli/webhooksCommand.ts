import { readSetting } from "../config.ts";
import { escapeControls } from "../domain/text.ts";
import { WEBHOOK_EVENT_TYPES } from "../domain/webhooks/webhookEvents.ts";
import { CodedError } from "../schemas/errorCodes.ts";
import { createWebhookInput, registerEndpoint } from "../router/webhooks/createWebhook.ts";
import { toEndpointView } from "../router/webhooks/webhookView.ts";
import { parseCommandArgs, plainFlag, printJson, RefusedError, UsageError } from "./cliSupport.ts";
import { DATABASE_FLAGS, DATABASE_FLAGS_HELP, openWorkspaceStores } from "./workspaceStores.ts";

export const WEBHOOKS_HELP = `Usage:
  broker-directory webhooks create --workspace NAME --url https://… --events a,b [--description TEXT] [--json]
  broker-directory webhooks list --workspace NAME [--json]
  broker-directory webhooks delete <id> --workspace NAME

All take ${DATABASE_FLAGS_HELP}

create   Registers an endpoint the workspace's events are sent to and prints its signing
         secret (whsec_…) once. --events from: ${WEBHOOK_EVENT_TYPES.join(", ")}.
         The URL must be https:// and not a private, loopback, link-local or metadata address
         (loopback allowed when WEBHOOKS_ALLOW_HTTP_LOOPBACK=true, as for serve).
list     Shows the workspace's endpoints (never their secrets), with why one is disabled.
delete   Removes an endpoint and its delivery log.
The same operations are in the API (POST /api/v1/webhooks, scope webhooks:manage) and the console.`;

export async function webhooksCommand(args: string[], env: Record<string, string | undefined>, now = Date.now()): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === "--help" || sub === "-h" || sub === "help") return console.log(WEBHOOKS_HELP);
  if (sub !== "create" && sub !== "list" && sub !== "delete") {
    throw new UsageError(`Unknown webhooks command ${JSON.stringify(sub)}: use create, list or delete.\nRun 'webhooks --help' for usage.`);
  }
  const { values, positionals } = parseCommandArgs(
    rest,
    { workspace: { type: "string" }, url: { type: "string" }, events: { type: "string" }, description: { type: "string" }, json: { type: "boolean" }, ...DATABASE_FLAGS },
    `webhooks ${sub}`,
    sub === "delete",
  );
  if (values.help) return console.log(WEBHOOKS_HELP);
  const name = plainFlag(values.workspace, "workspace")?.trim();
  if (!name) throw new UsageError("--workspace NAME is required.\nRun 'webhooks --help' for usage.");

  const stores = await openWorkspaceStores(values, env);
  try {
    const workspace = sub === "create" ? await stores.keys.ensureWorkspace(name, now) : await stores.keys.workspaceByName(name);
    if (!workspace) throw new RefusedError(`No workspace is named ${JSON.stringify(name)}.`);
    if (sub === "list") {
      const listed = (await stores.webhooks.list(workspace.id)).map((e) => toEndpointView(e, now));
      if (values.json) return printJson(listed);
      if (listed.length === 0) return console.log(`Workspace ${escapeControls(workspace.name)} has no webhook endpoints.`);
      for (const e of listed) console.log(escapeControls(`${e.id}  ${e.status}  ${e.url}  ${e.events.join(",")}${e.disabledReason ? `  (${e.disabledReason})` : ""}`));
      return;
    }
    if (sub === "delete") {
      const id = positionals[0];
      if (!id) throw new UsageError("webhooks delete needs the endpoint's id (we_…).\nRun 'webhooks --help' for usage.");
      if (!(await stores.webhooks.delete(id, workspace.id))) throw new RefusedError(`No webhook endpoint ${JSON.stringify(id)} in workspace ${JSON.stringify(name)}.`);
      return console.log(`Deleted ${escapeControls(id)}.`);
    }
    // The API's own schema and registration: the same checks, the same refusals.
    const input = createWebhookInput.safeParse({ url: values.url, events: values.events?.split(",").map((e) => e.trim()), description: values.description });
    if (!input.success) throw new UsageError(input.error.issues.map((i) => `--${String(i.path[0] ?? "url")} ${i.message}`).join("\n"));
    const allowHttpLoopback = readSetting("webhooksAllowHttpLoopback", { flags: {}, env });
    const made = await registerEndpoint(stores.webhooks, allowHttpLoopback, workspace.id, input.data, now).catch((error: unknown) => {
      if (error instanceof CodedError) throw new RefusedError(error.errorCode === "invalid_parameter" ? `--url ${error.message}` : error.message);
      throw error;
    });
    if (values.json) return printJson({ ...toEndpointView(made, now), secret: made.secret });
    console.log(`Webhook endpoint ${made.id} of workspace ${escapeControls(workspace.name)} → ${escapeControls(made.url)}\nSigning secret (shown once):\n\n  ${made.secret}\n`);
  } finally {
    await stores.close();
  }
}
