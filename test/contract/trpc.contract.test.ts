import { createTRPCClient, httpBatchLink } from "@trpc/client";
import { afterAll, beforeAll, expect, test } from "bun:test";
import superjson from "superjson";
import type { AppRouter } from "broker-directory";
import { startTestServer, type TestServer } from "../support/server.ts";
import * as spec from "./specFields.ts";

/** The tRPC surface returns the same shapes as REST: one procedure, every door. */
let server: TestServer;
let key: string;
beforeAll(async () => {
  server = await startTestServer();
  key = await server.createKey({ rateLimitPerMinute: 1_000_000 });
});
afterAll(() => server.close());

const client = () =>
  createTRPCClient<AppRouter>({
    links: [httpBatchLink({ url: `${server.url}/trpc`, transformer: superjson, headers: () => ({ Authorization: `Bearer ${key}` }) })],
  });
const { expectContract } = spec;

test("brokers.search, brokers.get and reviews.list answer with the spec's fields, and the same as REST", async () => {
  const trpc = client();
  const search = await trpc.brokers.search.query({ province: "BC", limit: "3" });
  expectContract(search.pagination, spec.PAGINATION, "pagination");
  const first = search.data[0]!;
  expectContract(first, spec.BROKER_LIST_ITEM, "data[0]");
  const detail = await trpc.brokers.get.query({ slug: first.slug });
  expectContract(detail, spec.BROKER_DETAIL, "detail");
  expectContract(detail.rating, spec.BROKER_RATING, "detail.rating");
  const reviews = await trpc.reviews.list.query({ brokerId: first.id, limit: 2 });
  for (const review of reviews.data) expectContract(review, spec.REVIEW, "review");

  const rest = (await (await server.request(`/api/v1/brokers/${first.slug}`, { key })).json()) as { data: unknown };
  expect(rest.data).toEqual(detail);
});
