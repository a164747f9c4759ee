/**
 * forge-recover compares a create's claim (the runner's clock) with creation times (the forge's
 * clock): the offset between the two comes from the forge's `Date` header, not a fixed margin.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { forgeClock } from "../../cli/recover";
import { startTestServer, type TestServer } from "./client-test-server";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  process.env["FORGE_BASE_URL"] = server.url;
  process.env["FORGE_TOKEN"] = "clock-test-token";
});
afterAll(async () => server.close());

it("reads a forge clock 10 s behind from its Date header", async () => {
  server.script({ body: { id: 1 }, headers: { date: new Date(Date.now() - 10_000).toUTCString() } });
  const { offsetMs } = await forgeClock();
  expect(offsetMs).toBeGreaterThan(-11_500);
  expect(offsetMs).toBeLessThan(-8_500);
});

it("takes the clocks as one when the forge sends no Date header it can read", async () => {
  server.script({ body: { id: 1 }, headers: { date: "not a date" } });
  expect((await forgeClock()).offsetMs).toBe(0);
});
