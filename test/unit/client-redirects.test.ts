import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ForgeApiError, ForgeClient } from "../../provider/client";
import { MAX_REDIRECTS } from "../../provider/client/client";
import { startTestServer, type TestServer } from "./client-test-server";

let server: TestServer;
let client: ForgeClient;

beforeAll(async () => {
  server = await startTestServer();
  client = new ForgeClient({ baseUrl: server.url, token: "t0ken-for-redirects", retry: { maxAttempts: 1 } });
});
afterAll(async () => {
  await client.close();
  await server.close();
});
afterEach(() => server.reset());

describe("a GET answered 301 (a moved project)", () => {
  it("is sent again to the Location, verbatim, with the token", async () => {
    server.script(
      { status: 301, headers: { location: `${server.url}/api/v4/projects/acme%2Fwebsite?statistics=true` } },
      { body: { id: 1, path: "website" } },
    );
    const response = await client.request("GET", "/projects/:id", { id: "acme/web", statistics: true });
    expect(response.body).toEqual({ id: 1, path: "website" });
    expect(server.requests.map((r) => r.url)).toEqual([
      "/api/v4/projects/acme%2Fweb?statistics=true",
      "/api/v4/projects/acme%2Fwebsite?statistics=true",
    ]);
    expect(server.requests[1]?.headers["private-token"]).toBe("t0ken-for-redirects");
  });

  it("resolves a relative Location against the forge", async () => {
    server.script({ status: 301, headers: { location: "/api/v4/projects/2" } }, { body: { id: 2 } });
    expect((await client.request("GET", "/projects/:id", { id: "old" })).body).toEqual({ id: 2 });
  });

  it("is not followed to another host: the token stays with the forge", async () => {
    server.script({ status: 301, headers: { location: "https://elsewhere.example/api/v4/projects/1" } });
    await expect(client.request("GET", "/projects/:id", { id: "acme/web" })).rejects.toThrow(
      /the redirect points to https:\/\/elsewhere\.example, not http:\/\/127\.0\.0\.1:\d+; refusing to send the token there/,
    );
    expect(server.requests).toHaveLength(1);
  });

  it(`is followed at most ${MAX_REDIRECTS} times, then reported`, async () => {
    server.fallback = { status: 301, headers: { location: `${server.url}/api/v4/projects/loop` } };
    const error = await client.request("GET", "/projects/:id", { id: "loop" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForgeApiError);
    expect((error as ForgeApiError).status).toBe(301);
    expect(server.requests).toHaveLength(MAX_REDIRECTS + 1);
  });
});
