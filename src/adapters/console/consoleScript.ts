import type { ErrorAsker } from "../http/json.ts";
import { consoleCode } from "../static/embeddedAssets.ts";
import { widgetAssetHandler } from "../static/widgetAsset.ts";

/**
 * GET /console/console.js: the console bundle, built on first use from source (dev, tests) or
 * embedded (the binary), served like the widget but for this origin only.
 */
export function consoleScriptHandler(): (request: Request, asker: ErrorAsker) => Promise<Response> {
  let serve: Promise<(request: Request, asker: ErrorAsker) => Response> | undefined;
  return async (request, asker) => {
    serve ??= consoleCode()
      .then((code) => widgetAssetHandler(code, { path: "/console/console.js", sameOriginOnly: true }))
      .catch((error: unknown) => {
        serve = undefined; // a failed dev build is retried on the next request
        throw error;
      });
    return (await serve)(request, asker);
  };
}
