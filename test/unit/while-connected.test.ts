import { expect, test } from "bun:test";
import { whileConnected } from "../../src/adapters/http/whileConnected.ts";
import { eventually } from "../support/eventually.ts";

/** A request as the net sees it, counting how often its signal is asked for. */
function watchedRequest(controller = new AbortController()) {
  const request = {
    asked: 0,
    get signal() {
      request.asked++;
      return controller.signal;
    },
  };
  return { request, controller };
}

const never = () => new Promise<never>(() => {});
const outcome = (p: Promise<unknown>) => p.then((value) => ({ value }), (error: unknown) => ({ error: String(error) }));

test("a read that settles is its value, and its request's signal is never asked for", async () => {
  const { request } = watchedRequest();
  expect(await whileConnected(request, Promise.resolve("bytes"))).toBe("bytes");
  expect(await outcome(whileConnected(request, Promise.reject(new Error("cut"))))).toEqual({ error: "Error: cut" });
  expect(request.asked).toBe(0);
});

test("a read Bun never settles is given up once its client is gone", async () => {
  const { request, controller } = watchedRequest();
  const read = outcome(whileConnected(request, never()));
  // Watched after one to two sweeps of a second; the client leaves after that.
  expect(await eventually(() => request.asked === 1, 5_000)).toBe(true);
  controller.abort();
  expect(await read).toEqual({ error: "Error: the client closed the connection" });
}, 10_000);

test("a client gone before the watch began is seen as gone at once", async () => {
  const { request, controller } = watchedRequest();
  const read = outcome(whileConnected(request, never()));
  controller.abort();
  expect(await Promise.race([read, Bun.sleep(5_000).then(() => "still pending")])).toEqual({ error: "Error: the client closed the connection" });
}, 10_000);

test("a read still pending with its client there stays pending", async () => {
  const { request } = watchedRequest();
  const read = whileConnected(request, never());
  expect(await Promise.race([read, Bun.sleep(2_300).then(() => "still pending")])).toBe("still pending");
}, 10_000);
