import { escapeControls, trimChar } from "../domain/text.ts";
import { parseCommandArgs, plainFlag, printJson, UsageError } from "./cliSupport.ts";
import { DATABASE_FLAGS, DATABASE_FLAGS_HELP, openWorkspaceStores } from "./workspaceStores.ts";

export const CONSOLE_LINK_HELP = `Usage:
  broker-directory console-link --workspace NAME [--url BASE] [--json] [--db PATH | --database-url URL]
  broker-directory console-link --workspace NAME --end-sessions [--json] [--db PATH | --database-url URL]

Prints a one-time sign-in link to the workspace console (/console), creating the workspace
if it does not exist. The link works once, for 15 minutes; only its hash is stored.
  --url           the address people reach the server at (default PUBLIC_URL, else
                  http://localhost:PORT with PORT from the environment or 3000)
  --json          print {url, workspace, expiresAt} (or {workspace, endedSessions})
  --end-sessions  sign everyone out of the workspace's console instead (ends every session)
The database: ${DATABASE_FLAGS_HELP}`;

export async function consoleLinkCommand(args: string[], env: Record<string, string | undefined>, now = Date.now()): Promise<void> {
  const { values } = parseCommandArgs(
    args,
    { workspace: { type: "string" }, url: { type: "string" }, json: { type: "boolean" }, "end-sessions": { type: "boolean" }, ...DATABASE_FLAGS },
    "console-link",
  );
  if (values.help) return console.log(CONSOLE_LINK_HELP);
  const name = plainFlag(values.workspace, "workspace")?.trim();
  if (!name) throw new UsageError("--workspace NAME is required.\nRun 'console-link --help' for usage.");
  const base = baseUrl(values.url, env);

  const { keys, consoleLinks, consoleSessions, close } = await openWorkspaceStores(values, env);
  try {
    if (values["end-sessions"]) {
      const workspace = await keys.workspaceByName(name);
      if (!workspace) throw new UsageError(`No workspace is named ${JSON.stringify(name)}.`);
      const ended = await consoleSessions.endAll(workspace.id, now);
      if (values.json) return printJson({ workspace: workspace.name, endedSessions: ended });
      return console.log(`Ended ${ended} console session${ended === 1 ? "" : "s"} of workspace ${escapeControls(workspace.name)}.`);
    }
    const workspace = await keys.ensureWorkspace(name, now);
    const { token, expiresAt } = await consoleLinks.create(workspace.id, now);
    const url = `${base}/console/sign-in?token=${token}`;
    if (values.json) return printJson({ url, workspace: workspace.name, expiresAt: new Date(expiresAt).toISOString() });
    console.log(`Sign-in link for workspace ${escapeControls(workspace.name)} (works once, until ${new Date(expiresAt).toISOString()}):\n\n  ${url}\n`);
  } finally {
    await close();
  }
}

function baseUrl(flag: string | undefined, env: Record<string, string | undefined>): string {
  const text = flag ?? env.PUBLIC_URL ?? `http://localhost:${env.PORT ?? 3000}`;
  if (!/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/i.test(text.trim())) {
    throw new UsageError(`--url must be an http(s) URL such as https://brokers.example.ca (got ${JSON.stringify(text)}).`);
  }
  return trimChar(text.trim(), "/", "end");
}
