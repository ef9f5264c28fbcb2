import { getBroker } from "./brokers/getBroker.ts";
import { searchBrokers } from "./brokers/searchBrokers.ts";
import { listCarriers } from "./carriers/listCarriers.ts";
import { embedBroker } from "./embed/embedBroker.ts";
import { embedBrokers } from "./embed/embedBrokers.ts";
import { embedReviews } from "./embed/embedReviews.ts";
import { createLead } from "./leads/createLead.ts";
import { listLeads } from "./leads/listLeads.ts";
import { exportLeads } from "./leads/exportLeads.ts";
import { getLead } from "./leads/getLead.ts";
import { updateLead } from "./leads/updateLead.ts";
import { createKey } from "./keys/createKey.ts";
import { listKeys } from "./keys/listKeys.ts";
import { revokeKey } from "./keys/revokeKey.ts";
import { rollKey } from "./keys/rollKey.ts";
import { updateKey } from "./keys/updateKey.ts";
import { keyUsage } from "./usage/keyUsage.ts";
import { comparePolicies } from "./policies/comparePolicies.ts";
import { createQuote } from "./quotes/createQuote.ts";
import { getQuote } from "./quotes/getQuote.ts";
import { listReviews } from "./reviews/listReviews.ts";
import { createCallerFactory, router } from "./trpc.ts";
import { createDirectoryBroker, getDirectoryBroker, listDirectoryBrokers, publishDirectoryBroker, unpublishDirectoryBroker, updateDirectoryBroker } from "./directory/directoryBrokers.ts";
import { importDirectory } from "./directory/directoryImport.ts";
import { importDirectoryFile } from "./directory/directoryImportFile.ts";
import { directoryReviewQueue } from "./directory/directoryReviewQueue.ts";
import { addDirectoryReview, directoryBrokerHistory, hideDirectoryReview, listDirectoryReviews, restoreDirectoryReview } from "./directory/directoryReviews.ts";
import { createWebhook } from "./webhooks/createWebhook.ts";
import { deleteWebhook, updateWebhook } from "./webhooks/changeWebhook.ts";
import { getWebhook, listWebhooks } from "./webhooks/readWebhooks.ts";
import { rollWebhookSecret } from "./webhooks/rollWebhookSecret.ts";
import { listWebhookDeliveries, resendWebhookDelivery, testWebhook } from "./webhooks/webhookDeliveries.ts";

/** Every procedure of the service. Adapters (REST, MCP, console, tRPC) reach them only through here. */
export const appRouter = router({
  brokers: router({
    search: searchBrokers,
    get: getBroker,
  }),
  reviews: router({
    list: listReviews,
  }),
  quotes: router({
    create: createQuote,
    get: getQuote,
  }),
  policies: router({
    compare: comparePolicies,
  }),
  leads: router({
    create: createLead,
    list: listLeads,
    get: getLead,
    update: updateLead,
    export: exportLeads,
  }),
  keys: router({
    list: listKeys,
    create: createKey,
    revoke: revokeKey,
    roll: rollKey,
    usage: keyUsage,
    update: updateKey,
  }),
  webhooks: router({
    list: listWebhooks,
    create: createWebhook,
    get: getWebhook,
    update: updateWebhook,
    delete: deleteWebhook,
    test: testWebhook,
    rollSecret: rollWebhookSecret,
    deliveries: listWebhookDeliveries,
    resend: resendWebhookDelivery,
  }),
  carriers: router({
    list: listCarriers,
  }),
  embed: router({
    brokers: embedBrokers,
    broker: embedBroker,
    reviews: embedReviews,
  }),
  // Issue 27 section 2: the directory's write API (directory:write, granted by the operator's CLI only).
  directory: router({
    listBrokers: listDirectoryBrokers,
    createBroker: createDirectoryBroker,
    getBroker: getDirectoryBroker,
    updateBroker: updateDirectoryBroker,
    publishBroker: publishDirectoryBroker,
    unpublishBroker: unpublishDirectoryBroker,
    brokerHistory: directoryBrokerHistory,
    listReviews: listDirectoryReviews,
    addReview: addDirectoryReview,
    hideReview: hideDirectoryReview,
    restoreReview: restoreDirectoryReview,
    import: importDirectory,
    // Issue 27 section 4: what the console's Reviews and Import pages read and send.
    reviewQueue: directoryReviewQueue,
    importFile: importDirectoryFile,
  }),
});

export type AppRouter = typeof appRouter;
/**
 * tRPC's own server-side caller. No adapter calls through it (they all use callProcedure): it is
 * the reference test/unit/invoke-procedure.test.ts holds callProcedure to, and the baseline of
 * scripts/bench/invokeCost.ts.
 */
export const createCaller = createCallerFactory(appRouter);
