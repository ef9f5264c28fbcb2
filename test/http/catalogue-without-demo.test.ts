import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ demo: false });
});
afterAll(() => server.close());

test("without demo data the carrier catalogue is still there and quotes work", async () => {
  const key = await server.createKey();
  const carriers = await server.request("/api/v1/carriers", { key });
  expect(carriers.status).toBe(200);
  expect(((await carriers.json()) as { data: unknown[] }).data).toHaveLength(30);
  const res = await server.request("/api/v1/embed/quotes", {
    key,
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      insuranceType: "Auto",
      province: "ON",
      postalCode: "M5V 3L9",
      details: { vehicleYear: 2020, vehicleMake: "Toyota", vehicleModel: "RAV4", driverAge: 35, cleanRecord: true },
    }),
  });
  expect(res.status).toBe(201);
  expect(((await res.json()) as { data: { quotes: unknown[] } }).data.quotes.length).toBeGreaterThanOrEqual(3);
});
