import { readDisabledReason } from "../../src/domain/webhooks/disabledReason.ts";
import type { T } from "./i18n.ts";

/**
 * Why an endpoint is disabled, in the console's language: the API's English reason read back
 * (src/domain/webhooks/disabledReason.ts). The last attempt's error stays as the server wrote it
 * (a status, a refusal): technical text a French page shows as it is, like a response code.
 */
export function reasonText(t: T, text: string): string {
  const reason = readDisabledReason(text);
  switch (reason.kind) {
    case "gone":
      return t("webhooks.reason.gone");
    case "workspace":
      return t("webhooks.reason.workspace");
    case "failing":
      return t("webhooks.reason.failing", { hours: reason.hours, last: reason.last });
    case "other":
      return reason.text;
  }
}
