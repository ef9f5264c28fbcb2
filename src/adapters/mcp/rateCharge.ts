import { chargeMore, rateLimitedError } from "../../auth/admitRequest.ts";
import type { RateDecision } from "../../auth/rateLimiter.ts";
import type { McpCallContext } from "./callContext.ts";
import { ErrorCode, McpProtocolError } from "./jsonRpc.ts";
import { codedData } from "./unavailable.ts";

/**
 * Charges the caller's key `units` more for work within this HTTP request (a further message
 * of a batch, the extra cost of a large read), or refuses that one message: -31429 with
 * `data.retryAfterSeconds`, HTTP 429 when the message was sent alone.
 */
export async function chargeOrRefuse(context: McpCallContext, units: number): Promise<void> {
  if (units <= 0) return;
  const rate = await chargeMore(context.services, context.principal, units);
  context.rate = rate;
  if (!rate.allowed) throw rateLimited(rate, context.procedureContext.requestId);
}

function rateLimited(rate: RateDecision, requestId: string): McpProtocolError {
  const error = rateLimitedError(rate);
  return new McpProtocolError(ErrorCode.RATE_LIMITED, error.message, codedData(error.errorCode, requestId, { retryAfterSeconds: rate.resetSeconds }), 429);
}
