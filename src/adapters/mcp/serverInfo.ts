import packageJson from "../../../package.json" with { type: "json" };

/** Who we are, in both eras (InitializeResult.serverInfo and `_meta` serverInfo). */
export const SERVER_INFO = {
  name: "broker-directory",
  title: "Broker Directory",
  version: packageJson.version,
  description: "Canada's insurance brokers: search, profiles, reviews, quotes, policy comparison and leads.",
} as const;

/**
 * What this server offers. It answers with plain JSON and keeps no sessions, so it cannot
 * deliver change notifications: listChanged and subscribe are false, and logging and
 * completions are not declared (their methods answer -32601).
 */
export const SERVER_CAPABILITIES = {
  tools: { listChanged: false },
  resources: { subscribe: false, listChanged: false },
  prompts: { listChanged: false },
} as const;

export const SERVER_INSTRUCTIONS = [
  "Directory of published insurance brokers in Canada.",
  "Find brokers with search_brokers (filter by province, city, insurance line or words), then get_broker for a profile and get_reviews for customer reviews.",
  "get_quote prices a policy with the carriers that write it in that province; compare_policies sets two quotes side by side; create_lead passes a customer's contact details to the workspace.",
  "Only call create_lead with details the user has explicitly agreed to share.",
].join(" ");
