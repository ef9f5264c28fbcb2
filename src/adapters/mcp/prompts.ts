import { ErrorCode, isPlainObject, McpProtocolError, type JsonObject } from "./jsonRpc.ts";

interface PromptArgument {
  name: string;
  description: string;
  required: boolean;
}

interface McpPrompt {
  name: string;
  title: string;
  description: string;
  arguments: PromptArgument[];
  /** The user message, from arguments already checked to be present and short. */
  render(args: Record<string, string>): string;
}

const MAX_ARGUMENT_LENGTH = 2_000;

/** Ready-made starting points an MCP client can offer its user (prompts/list, prompts/get). */
const prompts: readonly McpPrompt[] = [
  {
    name: "find_broker",
    title: "Find a broker for my situation",
    description: "Finds and recommends insurance brokers in Canada that fit what the user needs insured and where they live.",
    arguments: [
      { name: "situation", description: "What needs insuring and anything that matters, e.g. 'first car, new driver, prefers French'", required: true },
      { name: "province", description: "Province or territory, as a name or a two-letter code", required: false },
      { name: "city", description: "City or town", required: false },
    ],
    render: ({ situation, province, city }) =>
      [
        "Help me find an insurance broker in Canada.",
        `My situation: ${situation}`,
        province ? `Province: ${province}` : "I have not said which province yet; ask me if it matters.",
        city ? `City: ${city}` : "",
        "Use search_brokers (with the insurance line, province and city that fit), look at the most promising results with get_broker and get_reviews, " +
          "then recommend two or three brokers: why each fits, their rating and number of reviews, and how to contact them.",
      ]
        .filter(Boolean)
        .join("\n"),
  },
];

const promptsByName = new Map(prompts.map((prompt) => [prompt.name, prompt]));

/** prompts/list, built once. */
const promptList = prompts.map(({ render: _render, ...descriptor }) => descriptor);
export function listPrompts(): JsonObject {
  return { prompts: promptList };
}

/** prompts/get. An unknown prompt or a missing required argument is -32602, as the spec says. */
export function getPrompt(params: JsonObject): JsonObject {
  const prompt = typeof params.name === "string" ? promptsByName.get(params.name) : undefined;
  if (!prompt) {
    throw new McpProtocolError(
      ErrorCode.INVALID_PARAMS,
      `Unknown prompt${typeof params.name === "string" ? `: ${JSON.stringify(params.name.slice(0, 100))}` : " (params.name is missing)"}. Available prompts: ${[...promptsByName.keys()].join(", ")}.`,
    );
  }
  const given = params.arguments ?? {};
  if (!isPlainObject(given)) throw new McpProtocolError(ErrorCode.INVALID_PARAMS, "prompts/get params.arguments must be an object of strings.");
  const args: Record<string, string> = {};
  for (const argument of prompt.arguments) {
    const value = given[argument.name];
    if (value === undefined || value === "") {
      if (argument.required) throw new McpProtocolError(ErrorCode.INVALID_PARAMS, `Prompt ${prompt.name} needs the argument ${argument.name}: ${argument.description}.`);
      continue;
    }
    if (typeof value !== "string" || value.length > MAX_ARGUMENT_LENGTH) {
      throw new McpProtocolError(ErrorCode.INVALID_PARAMS, `Prompt argument ${argument.name} must be text of at most ${MAX_ARGUMENT_LENGTH} characters.`);
    }
    args[argument.name] = value;
  }
  return {
    description: prompt.description,
    messages: [{ role: "user", content: { type: "text", text: prompt.render(args) } }],
  };
}
