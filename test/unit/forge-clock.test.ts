/**
 * forge-recover compares a create's claim (the runner's clock) with creation times (the forge's
 * clock): the offset between the two comes from the forge's `Date` header, not a fixed margin.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { forgeClock } from "../../cli/recover";
import { ForgeClient } from "../../provider/client";
import { startTestServer, type TestServer } from "./client-test-server";

let server: TestServer;
let client: ForgeClient;
beforeAll(async () => {
  server = await startTestServer();
  client = new ForgeClient({ baseUrl: server.url, token: "clock-test-token", retry: { maxAttempts: 1 } });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

it("reads a forge clock 10 s behind from its Date header", async () => {
  server.script({ body: { id: 1 }, headers: { date: new Date(Date.now() - 10_000).toUTCString() } });
  const { offsetMs } = await forgeClock(client);
  expect(offsetMs).toBeGreaterThan(-11_500);
  expect(offsetMs).toBeLessThan(-8_500);
});

it("takes the clocks as one when the forge sends no Date header it can read", async () => {
  server.script({ body: { id: 1 }, headers: { date: "not a date" } });
  expect((await forgeClock(client)).offsetMs).toBe(0);
});
