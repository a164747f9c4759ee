import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ForgeApiError, ForgeClient, extractServerMessage, isNotFound } from "../../provider/client";
import { startTestServer, type TestServer } from "./client-test-server";

const TOKEN = "glpat-very-secret-4242";
let server: TestServer;
let client: ForgeClient;

beforeAll(async () => {
  server = await startTestServer();
  client = new ForgeClient({ baseUrl: server.url, token: TOKEN, retry: { maxAttempts: 1 } });
});
afterAll(async () => {
  await client.close();
  await server.close();
});
afterEach(() => {
  server.reset();
});

async function failure(promise: Promise<unknown>): Promise<ForgeApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ForgeApiError);
  return error as ForgeApiError;
}

describe("ForgeApiError", () => {
  it("reads like `GET /path failed: 404 <server message>` with fields set, no query", async () => {
    server.script({ status: 404, body: { message: "404 Label Not Found" } });
    const error = await failure(
      client.request("GET", "/groups/:id/labels/:label_id", { id: "acme/platform", label_id: 7, with_counts: true }),
    );
    expect(error.message).toBe("GET /groups/acme%2Fplatform/labels/7 failed: 404 Label Not Found");
    expect(error).toMatchObject({
      method: "GET",
      path: "/groups/acme%2Fplatform/labels/7",
      status: 404,
      serverMessage: "404 Label Not Found",
    });
    expect(error.body).toEqual({ message: "404 Label Not Found" });
    expect(isNotFound(error)).toBe(true);
  });

  const shapes: Array<[string, number, unknown, string]> = [
    ["message string", 403, { message: "403 Forbidden" }, "403 Forbidden"],
    [
      "message hash",
      400,
      { message: { color: ["must be a valid color code"], name: ["is too short", "is invalid"] } },
      "color must be a valid color code; name is too short; name is invalid",
    ],
    ["message array", 422, { message: ["Name has already been taken", "Tier is invalid"] }, "Name has already been taken; Tier is invalid"],
    [
      "error string",
      400,
      { error: "files, content are missing, exactly one parameter must be provided" },
      "files, content are missing, exactly one parameter must be provided",
    ],
    ["unknown route", 404, { error: "404 Not Found" }, "404 Not Found"],
    ["plain text", 429, "Retry later\n", "Retry later"],
    ["empty body", 500, undefined, "Internal Server Error"],
  ];
  it.each(shapes)("extracts the server message from a %s body", async (_shape, status, body, expected) => {
    server.script({ status, body });
    const error = await failure(client.request("POST", "/projects/:id/things", { id: 1 }));
    expect(error.serverMessage).toBe(expected);
    // The status is said once, also when the server's message starts with it.
    const reason = expected.startsWith(`${status} `) ? expected : `${status} ${expected}`;
    expect(error.message).toBe(`POST /projects/1/things failed: ${reason}`);
    expect(isNotFound(error)).toBe(status === 404);
  });

  it("renders invalid_token with its description and adds the token hint on 401", async () => {
    server.script({
      status: 401,
      body: { error: "invalid_token", error_description: "Token is expired. You can either do re-authorization or token refresh." },
    });
    const error = await failure(client.request("GET", "/user"));
    expect(error.serverMessage).toBe("invalid_token: Token is expired. You can either do re-authorization or token refresh.");
    expect(error.message).toContain("GET /user failed: 401 invalid_token: Token is expired.");
    expect(error.message).toContain("FORGE_TOKEN");
    expect(error.message).toContain("pulumi config set --secret forge:token");
  });

  it("adds the hint to a plain 401 too", async () => {
    server.script({ status: 401, body: { message: "401 Unauthorized" } });
    const error = await failure(client.request("GET", "/user"));
    expect(error.message).toMatch(/^GET \/user failed: 401 Unauthorized\. Check the token: set the FORGE_TOKEN environment variable/);
  });

  it("never puts the token in a message, even when the server echoes it or it is a path param", async () => {
    server.script({ status: 400, body: { message: `token ${TOKEN} is not allowed here` } });
    const error = await failure(client.request("GET", "/personal_access_tokens/:token", { token: TOKEN }));
    expect(error.message).not.toContain(TOKEN);
    expect(error.serverMessage).not.toContain(TOKEN);
    expect(error.path).not.toContain(TOKEN);
    expect(error.message).toContain("[secret]");
    expect(String(error.stack)).not.toContain(TOKEN);
    expect(server.requests[0]?.headers["private-token"]).toBe(TOKEN);
  });

  it("treats statuses outside 2xx as errors unless accepted", async () => {
    server.script({ status: 304 }, { status: 301, headers: { location: "/elsewhere" } });
    const error = await failure(client.request("POST", "/projects/1/labels/2/subscribe"));
    expect(error.status).toBe(304);
    // A GET follows a 301 (client-redirects.test.ts); other methods report it.
    const moved = await failure(client.request("PUT", "/projects/:id", { id: "old/path" }));
    expect(moved.status).toBe(301);
    expect(moved.message).toBe("PUT /projects/old%2Fpath failed: 301 Moved Permanently");
  });

  it("isNotFound is false for other errors and non-errors", () => {
    expect(isNotFound(new Error("404"))).toBe(false);
    expect(isNotFound(undefined)).toBe(false);
    expect(isNotFound(new ForgeApiError({ method: "GET", path: "/x", status: 403, body: undefined }))).toBe(false);
  });

  it("extractServerMessage parses JSON sent as text", () => {
    expect(extractServerMessage('{"message":{"base":["Cannot delete"]}}', 400)).toBe("Cannot delete");
    expect(extractServerMessage("x".repeat(1000), 500)).toHaveLength(301);
  });
});
