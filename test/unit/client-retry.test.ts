import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  ForgeApiError,
  ForgeClient,
  ForgeNetworkError,
  isAnswerLost,
  classifyAttempt,
  retryDelayMs,
  serverDelayMs,
  DEFAULT_RETRY_POLICY,
  type RetryPolicy,
} from "../../provider/client";
import { startTestServer, type TestServer } from "./client-test-server";

const FAST: RetryPolicy = { maxAttempts: 5, maxTotalMs: 5_000, baseDelayMs: 5, maxDelayMs: 20 };
const TOKEN = "retry-secret-token";
let server: TestServer;
let client: ForgeClient;

beforeAll(async () => {
  server = await startTestServer();
  client = new ForgeClient({ baseUrl: server.url, token: TOKEN, retry: FAST });
});
afterAll(async () => {
  await client.close();
  await server.close();
});
afterEach(() => {
  server.reset();
});

const unavailable = { status: 503, body: { message: "503 Service Unavailable" } };

describe("retry policy (pure)", () => {
  const response = (status: number, headers: Record<string, string> = {}) => ({ response: { status, headers, body: undefined } });
  const failure = (code: string) => ({ failure: { code, error: new Error(code) } });

  it("classifies statuses and failures by method", () => {
    expect(classifyAttempt("POST", response(429))).toBe("retry");
    expect(classifyAttempt("GET", response(503))).toBe("retry");
    expect(classifyAttempt("PUT", response(502))).toBe("retry");
    expect(classifyAttempt("DELETE", response(504))).toBe("retry");
    expect(classifyAttempt("POST", response(503))).toBe("ambiguous");
    expect(classifyAttempt("PATCH", response(504))).toBe("ambiguous");
    expect(classifyAttempt("GET", response(500))).toBe("done");
    expect(classifyAttempt("GET", response(404))).toBe("done");
    expect(classifyAttempt("GET", response(503), [503])).toBe("done");
    expect(classifyAttempt("GET", failure("ECONNRESET"))).toBe("retry");
    expect(classifyAttempt("POST", failure("UND_ERR_SOCKET"))).toBe("ambiguous");
    expect(classifyAttempt("POST", failure("ECONNREFUSED"))).toBe("retry");
    expect(classifyAttempt("GET", failure("ERR_INVALID_ARG"))).toBe("done");
  });

  it("reads Retry-After as seconds or an HTTP date, then RateLimit-Reset on 429", () => {
    const now = Date.parse("2024-05-01T10:00:00Z");
    const r = (status: number, headers: Record<string, string>) => ({ status, headers, body: undefined });
    expect(serverDelayMs(r(429, { "retry-after": "7" }), now)).toBe(7000);
    expect(serverDelayMs(r(429, { "retry-after": "0.25" }), now)).toBe(250);
    expect(serverDelayMs(r(503, { "retry-after": "Wed, 01 May 2024 10:00:30 GMT" }), now)).toBe(30_000);
    expect(serverDelayMs(r(503, { "retry-after": "Wed, 01 May 2024 09:00:00 GMT" }), now)).toBe(0);
    expect(serverDelayMs(r(429, { "ratelimit-reset": String(now / 1000 + 12) }), now)).toBe(12_000);
    expect(serverDelayMs(r(429, { "ratelimit-reset": "3" }), now)).toBe(3000);
    expect(serverDelayMs(r(503, { "ratelimit-reset": "3" }), now)).toBeUndefined();
    expect(serverDelayMs(r(429, {}), now)).toBeUndefined();
  });

  it("backs off exponentially with jitter, capped", () => {
    const policy = { ...DEFAULT_RETRY_POLICY };
    expect(retryDelayMs(1, undefined, policy, 0, () => 0)).toBe(250);
    expect(retryDelayMs(1, undefined, policy, 0, () => 1)).toBe(500);
    expect(retryDelayMs(3, undefined, policy, 0, () => 1)).toBe(2000);
    expect(retryDelayMs(20, undefined, policy, 0, () => 1)).toBe(policy.maxDelayMs);
    const limited = { status: 429, headers: { "retry-after": "40" }, body: undefined };
    expect(retryDelayMs(1, limited, policy, 0, () => 0)).toBe(40_000);
    expect(retryDelayMs(1, limited, policy, 0, () => 1)).toBeLessThanOrEqual(40_500);
  });
});

describe("retries over HTTP", () => {
  it("retries a 429 after the Retry-After wait", async () => {
    const slow = new ForgeClient({ baseUrl: server.url, token: TOKEN, retry: { baseDelayMs: 5 } });
    try {
      server.script(
        { status: 429, body: "Retry later\n", headers: { "retry-after": "1", "ratelimit-remaining": "0" } },
        { body: { ok: 1 } },
      );
      const result = await slow.request("GET", "/projects/1");
      expect(result.body).toEqual({ ok: 1 });
      expect(server.requests).toHaveLength(2);
      const [first, second] = server.requests;
      // Loose bound only (timers never fire early by more than a tick).
      expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(900);
    } finally {
      await slow.close();
    }
  });

  it("retries a 429 for POST too (the server did nothing)", async () => {
    server.script({ status: 429, body: "Retry later\n", headers: { "retry-after": "0" } }, { status: 201, body: { id: 3 } });
    const created = await client.request("POST", "/projects/:id/labels", { id: 1, name: "bug" });
    expect(created).toMatchObject({ status: 201, body: { id: 3 } });
    expect(server.requests.map((r) => r.method)).toEqual(["POST", "POST"]);
    expect(server.requests[1]?.body.toString()).toBe('{"name":"bug"}');
  });

  it("gives up at once when Retry-After exceeds the total time budget", async () => {
    server.script({ status: 429, body: "Retry later\n", headers: { "retry-after": "30" } });
    // A client of its own: the refusal holds every request of the client that got it for 30 s.
    const refused = new ForgeClient({ baseUrl: server.url, token: TOKEN, retry: FAST });
    const error = await refused.request("GET", "/projects").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForgeApiError);
    expect((error as ForgeApiError).message).toBe("GET /projects failed: 429 Retry later");
    expect(server.requests).toHaveLength(1);
  });

  it.each(["GET", "PUT", "DELETE"] as const)("retries 503 for %s", async (method) => {
    server.script(unavailable, { status: 502, body: "bad gateway" }, { status: 200, body: { done: true } });
    const result = await client.request(method, "/groups/:id", { id: 2, name: "n" });
    expect(result.body).toEqual({ done: true });
    expect(server.requests.map((r) => r.method)).toEqual([method, method, method]);
  });

  it("never sends a POST again after a 503: it reports the answer lost (the forge may have done the work)", async () => {
    server.script(unavailable, { status: 201, body: { id: 1 } });
    const error = await client.request("POST", "/groups/:id/labels", { id: 2, name: "x" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForgeApiError);
    expect((error as ForgeApiError).status).toBe(503);
    expect(isAnswerLost(error)).toBe(true);
    expect((error as ForgeApiError).message).toContain("its answer was lost");
    expect(server.requests).toHaveLength(1);
  });

  it("a POST refused outright (4xx) or a GET that ran out of retries is not an answer lost", async () => {
    server.script({ status: 409, body: { message: "Label already exists" } });
    expect(isAnswerLost(await client.request("POST", "/groups/:id/labels", { id: 2, name: "x" }).catch((e: unknown) => e))).toBe(false);
    const once = new ForgeClient({ baseUrl: server.url, token: TOKEN, retry: { ...FAST, maxAttempts: 1 } });
    try {
      server.script(unavailable);
      expect(isAnswerLost(await once.request("GET", "/projects").catch((e: unknown) => e))).toBe(false);
    } finally {
      await once.close();
    }
  });

  it("respects the attempts bound and says so", async () => {
    const three = new ForgeClient({ baseUrl: server.url, token: TOKEN, retry: { ...FAST, maxAttempts: 3 } });
    try {
      server.fallback = unavailable;
      const error = await three.request("GET", "/projects/:id", { id: 1 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ForgeApiError);
      expect((error as ForgeApiError).message).toBe("GET /projects/1 failed: 503 Service Unavailable (gave up after 3 attempts)");
      expect(server.requests).toHaveLength(3);
    } finally {
      await three.close();
    }
  });

  it("respects the total time bound and names the budget, and how to raise it", async () => {
    const brief = new ForgeClient({
      baseUrl: server.url,
      token: TOKEN,
      retry: { maxAttempts: 100, maxTotalMs: 300, baseDelayMs: 50, maxDelayMs: 50 },
    });
    try {
      server.fallback = unavailable;
      await expect(brief.request("GET", "/projects")).rejects.toThrow(
        /gave up after \d+ attempts: the retry budget of 0\.3 s is spent; raise it with stack config forge:retryBudgetMs or FORGE_RETRY_BUDGET_MS/,
      );
      expect(server.requests.length).toBeGreaterThan(1);
      expect(server.requests.length).toBeLessThan(100);
    } finally {
      await brief.close();
    }
  });

  it("retries a GET whose connection the server drops", async () => {
    server.script({ drop: true }, { drop: true }, { body: [1] });
    expect((await client.request("GET", "/projects")).body).toEqual([1]);
    expect(server.requests).toHaveLength(3);
  });

  it("sends a GET again whole when its body breaks off half-way (no Range request: the API does not honour one)", async () => {
    server.script({ cut: true, body: { items: "x".repeat(2000) } }, { body: { items: "whole" } });
    expect((await client.request("GET", "/projects/:id", { id: 1 })).body).toEqual({ items: "whole" });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.url).toBe("/api/v4/projects/1");
    expect(server.requests[1]?.headers["range"]).toBeUndefined();
  });

  it("never sends a POST again after its connection drops: it reports the answer lost", async () => {
    server.script({ drop: true }, { status: 201, body: {} });
    const error = await client.request("POST", "/projects", { name: "p" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForgeNetworkError);
    expect(isAnswerLost(error)).toBe(true);
    expect((error as ForgeNetworkError).message).toMatch(/^POST \/projects failed: /);
    expect((error as ForgeNetworkError).message).not.toContain(TOKEN);
    expect(server.requests).toHaveLength(1);
  });
});

describe("timeouts", () => {
  it("says which request timed out", async () => {
    const impatient = new ForgeClient({ baseUrl: server.url, token: TOKEN, timeoutMs: 150, retry: { ...FAST, maxAttempts: 2 } });
    try {
      server.fallback = { hang: true };
      const error = await impatient.request("GET", "/projects/:id/hooks", { id: "acme/web", page: 2 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ForgeNetworkError);
      expect((error as ForgeNetworkError).timedOut).toBe(true);
      expect((error as ForgeNetworkError).message).toBe(
        "GET /projects/acme%2Fweb/hooks timed out: no response within 150 ms (gave up after 2 attempts)",
      );
      expect(server.requests).toHaveLength(2);
    } finally {
      await impatient.close();
    }
  });

  it("never sends a timed-out POST again", async () => {
    const impatient = new ForgeClient({ baseUrl: server.url, token: TOKEN, timeoutMs: 150, retry: FAST });
    try {
      server.fallback = { hang: true };
      await expect(impatient.request("POST", "/projects", { name: "p" })).rejects.toThrow(
        "POST /projects timed out: no response within 150 ms",
      );
      expect(server.requests).toHaveLength(1);
    } finally {
      await impatient.close();
    }
  });
});
