import { DOWNLOAD_RETRY_AFTER_SECONDS } from "../../auth/downloadSlots.ts";
import type { ErrorCode as VocabularyCode } from "../../schemas/errorCodes.ts";
import { toPublicError } from "../errorVocabulary.ts";
import type { McpCallContext } from "./callContext.ts";
import { directoryReadUnits, directorySize, directoryText, humanSize } from "./directoryResource.ts";
import { ErrorCode, McpProtocolError, type JsonObject } from "./jsonRpc.ts";
import { callProcedure, procedureFacts, type ProcedurePath } from "../../router/procedureCatalog.ts";
import { missingScopeMessage } from "../../router/trpc.ts";
import { chargeOrRefuse } from "./rateCharge.ts";
import { codedData, throwIfUnavailable } from "./unavailable.ts";

const JSON_MIME = "application/json";
const DIRECTORY_URI = "broker://directory";
const CARRIERS_URI = "broker://carriers";
const BROKER_URI_PREFIX = "broker://brokers/";

/**
 * Every resource (and template) and the procedure whose data and scope it serves. The
 * directory is streamed from the store (a procedure result is one object in memory) but is
 * the published directory as search gives it: it takes search's scope.
 */
export const resourceProcedures: readonly { uri: string; procedure: ProcedurePath }[] = [
  { uri: DIRECTORY_URI, procedure: "brokers.search" },
  { uri: CARRIERS_URI, procedure: "carriers.list" },
  { uri: `${BROKER_URI_PREFIX}{slug}`, procedure: "brokers.get" },
];
const scopeNote = (procedure: ProcedurePath) => `Needs the ${procedureFacts(procedure).scope} scope.`;
const DIRECTORY_SCOPE = procedureFacts("brokers.search").scope;

const carriersResource = {
  uri: CARRIERS_URI,
  name: "carriers",
  title: "Insurance carriers",
  description:
    `The 30 insurance carriers operating in Canada that quotes are drawn from, each with its slug, name, the lines it writes and the provinces it writes them in: JSON {data, total}. ${scopeNote("carriers.list")}`,
  mimeType: JSON_MIME,
};

/** resources/list. The directory's description states its current size. */
export function listResources(context: McpCallContext): JsonObject {
  const size = directorySize(context.services.brokers);
  const directory: JsonObject = {
    uri: DIRECTORY_URI,
    name: "directory",
    title: "The whole broker directory",
    description:
      `Every published broker (${size.brokers.toLocaleString("en-CA")} now) with profile, offices, insurance lines and rating breakdown: ` +
      `one JSON document {generatedAt, brokers, total} of ${size.exact ? "" : "about "}${humanSize(size.bytes)}. ` +
      `Large: to find brokers use the search_brokers tool, and for one broker read broker://brokers/{slug}. ${scopeNote("brokers.search")}`,
    mimeType: JSON_MIME,
  };
  if (size.exact) directory.size = size.bytes;
  return { resources: [directory, carriersResource] };
}

/** resources/templates/list. */
export function listResourceTemplates(): JsonObject {
  return {
    resourceTemplates: [
      {
        uriTemplate: `${BROKER_URI_PREFIX}{slug}`,
        name: "broker",
        title: "One broker's profile",
        description:
          `The full profile of one published broker by slug (as in search_brokers results), the same JSON as the get_broker tool. ${scopeNote("brokers.get")}`,
        mimeType: JSON_MIME,
      },
    ],
  };
}

/** resources/read. An unknown URI is an error (never empty contents), with the URI in `data`. */
export async function readResource(params: JsonObject, context: McpCallContext): Promise<JsonObject> {
  const uri = params.uri;
  if (typeof uri !== "string" || uri === "") {
    throw new McpProtocolError(ErrorCode.INVALID_PARAMS, "resources/read needs params.uri: a URI from resources/list or a resource template.");
  }
  if (uri === DIRECTORY_URI) {
    // Streamed from the store rather than through a procedure: the scope is search's (above).
    if (!context.principal.scopes.has(DIRECTORY_SCOPE)) {
      throw accessDenied({ code: "scope_missing", message: missingScopeMessage(DIRECTORY_SCOPE) }, context);
    }
    // One per HTTP request: a batch of twenty would be twenty directories in one response.
    if (context.streamed.length > 0) {
      throw new McpProtocolError(ErrorCode.INVALID_REQUEST, "broker://directory may be read once per HTTP request: send further reads as requests of their own.");
    }
    const release = context.services.downloads.take(context.principal.keyId);
    if (!release) throw downloadsRefused(context);
    try {
      // The message was charged one unit like any other; the whole directory costs more.
      await chargeOrRefuse(context, directoryReadUnits(context.principal) - 1);
    } catch (error) {
      release();
      throw error;
    }
    const text = directoryText(context.services.brokers, context.services.now(), release);
    context.streamed.push(text);
    return { contents: [{ uri, mimeType: JSON_MIME, text }] };
  }
  if (uri === CARRIERS_URI) return jsonContents(uri, await readThroughProcedure(uri, context, () => callProcedure(context.procedureContext, "carriers.list", undefined)));
  if (uri.startsWith(BROKER_URI_PREFIX)) {
    const slug = decodeSegment(uri.slice(BROKER_URI_PREFIX.length));
    if (slug) return jsonContents(uri, await readThroughProcedure(uri, context, () => callProcedure(context.procedureContext, "brokers.get", { slug })));
  }
  throw resourceNotFound(uri, context);
}

function jsonContents(uri: string, value: unknown): JsonObject {
  return { contents: [{ uri, mimeType: JSON_MIME, text: JSON.stringify(value) }] };
}

/** Procedure errors, as resources/read words them: NOT_FOUND and bad input are "no such resource". */
async function readThroughProcedure<T>(uri: string, context: McpCallContext, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    const failure = toPublicError(error);
    if (failure.status === 404 || failure.code === "invalid_parameter") throw resourceNotFound(uri, context, failure.status === 404 ? failure.code : "not_found");
    if (failure.status === 403) throw accessDenied(failure, context);
    throwIfUnavailable(failure, context.procedureContext.requestId);
    if (failure.internal) context.logFailure("resource read failed", error);
    throw new McpProtocolError(ErrorCode.INTERNAL_ERROR, failure.message, codedData(failure.code, context.procedureContext.requestId));
  }
}

/** -32002 in the 2025 revisions, -32602 from 2026-07-28; `data.uri` either way (and the code: broker_not_found for a slug no broker has). */
function resourceNotFound(uri: string, context: McpCallContext, code: VocabularyCode = "not_found"): McpProtocolError {
  const shown = uri.slice(0, 300);
  return new McpProtocolError(
    context.era === "modern" ? ErrorCode.INVALID_PARAMS : ErrorCode.RESOURCE_NOT_FOUND,
    `Resource not found: ${JSON.stringify(shown)}. Read broker://directory, broker://carriers, or broker://brokers/{slug} with a slug from search_brokers.`,
    codedData(code, context.procedureContext.requestId, { uri: shown }),
  );
}

/** The key's large downloads are all in progress: -31429 (HTTP 429 when the message was alone), as a rate limit is. */
function downloadsRefused(context: McpCallContext): McpProtocolError {
  const data = codedData("too_many_downloads", context.procedureContext.requestId, { retryAfterSeconds: DOWNLOAD_RETRY_AFTER_SECONDS });
  return new McpProtocolError(ErrorCode.RATE_LIMITED, context.services.downloads.refusalMessage(), data, 429);
}

function accessDenied(failure: { code: VocabularyCode; message: string }, context: McpCallContext): McpProtocolError {
  return new McpProtocolError(ErrorCode.ACCESS_DENIED, failure.message, codedData(failure.code, context.procedureContext.requestId));
}

function decodeSegment(segment: string): string | undefined {
  if (segment === "" || segment.includes("/")) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
