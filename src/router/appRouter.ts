import { getBroker } from "./brokers/getBroker.ts";
import { searchBrokers } from "./brokers/searchBrokers.ts";
import { listReviews } from "./reviews/listReviews.ts";
import { createCallerFactory, router } from "./trpc.ts";

/** Every procedure of the service. Adapters (REST, MCP, tRPC) reach them only through here. */
export const appRouter = router({
  brokers: router({
    search: searchBrokers,
    get: getBroker,
  }),
  reviews: router({
    list: listReviews,
  }),
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
export type Caller = ReturnType<typeof createCaller>;
