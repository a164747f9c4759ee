/**
 * The client under a rate limit and through outages: the pacer (pure, with a fake clock), the
 * time budget of the retry layer, and the client against the emulator's rate limit over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ForgeClient, DEFAULT_RETRY_POLICY } from "../../provider/client";
import { resolveTransport } from "../../provider/client/connection";
import { RateLimitPacer } from "../../provider/client/pacer";
import { runWithRetry, type RetryWait } from "../../provider/client/retry";
import { startEmulator, type RunningEmulator } from "../../emulator";

describe("pacer (pure)", () => {
  const clock = () => {
    let now = 1_700_000_000_000;
    const waits: number[] = [];
    return {
      now: () => now,
      wait: async (ms: number) => {
        waits.push(ms);
        now += ms;
      },
      waits,
    };
  };

  it("lets requests through while the window has budget, then holds them until the reset", async () => {
    const c = clock();
    const pacer = new RateLimitPacer(c.now, c.wait, () => 0);
    await pacer.acquire(); // nothing known yet: goes
    const reset = Math.ceil(c.now() / 1000) + 10;
    pacer.observe({ "ratelimit-limit": "3", "ratelimit-remaining": "2", "ratelimit-reset": String(reset) });
    await pacer.acquire();
    await pacer.acquire();
    expect(c.waits).toEqual([]);
    await pacer.acquire(); // the window is spent: waits for the reset, then the new window's budget
    expect(c.waits).toHaveLength(1);
    expect(c.now()).toBeGreaterThanOrEqual(reset * 1000);
    await pacer.acquire();
    await pacer.acquire();
    expect(c.waits).toHaveLength(1);
  });

  it("keeps the lower count when an older answer arrives late in the same window", async () => {
    const c = clock();
    const pacer = new RateLimitPacer(c.now, c.wait, () => 0);
    const reset = String(Math.ceil(c.now() / 1000) + 5);
    pacer.observe({ "ratelimit-limit": "10", "ratelimit-remaining": "1", "ratelimit-reset": reset });
    pacer.observe({ "ratelimit-limit": "10", "ratelimit-remaining": "6", "ratelimit-reset": reset });
    await pacer.acquire();
    await pacer.acquire();
    expect(c.waits).toHaveLength(1);
  });

  it("holds every request after a 429's Retry-After, not only the refused one", async () => {
    const c = clock();
    const pacer = new RateLimitPacer(c.now, c.wait, () => 0);
    await pacer.acquire();
    pacer.observe({ "retry-after": "7" }, 429);
    const start = c.now();
    await pacer.acquire(); // another request of the same client waits too
    expect(c.now() - start).toBeGreaterThanOrEqual(7_000);
    await pacer.acquire(); // after the wait, the budget is unknown again: goes
    expect(c.waits).toHaveLength(1);
    pacer.observe({ "retry-after": "7" }, 200); // only a refusal holds
    await pacer.acquire();
    expect(c.waits).toHaveLength(1);
  });

  it("ignores answers without the headers", async () => {
    const c = clock();
    const pacer = new RateLimitPacer(c.now, c.wait, () => 0);
    pacer.observe({});
    for (let i = 0; i < 5; i += 1) await pacer.acquire();
    expect(c.waits).toEqual([]);
  });
});

describe("retry budget (pure)", () => {
  it("is a time budget: no attempt cap by default, waits reported, stops before crossing it", async () => {
    expect(DEFAULT_RETRY_POLICY.maxAttempts).toBe(Number.POSITIVE_INFINITY);
    expect(DEFAULT_RETRY_POLICY.maxTotalMs).toBe(60_000);
    let now = 0;
    const waits: RetryWait[] = [];
    const { attempts, outcome } = await runWithRetry({
      method: "GET",
      send: async () => ({ response: { status: 503, headers: {}, body: undefined } }),
      policy: { ...DEFAULT_RETRY_POLICY },
      now: () => now,
      random: () => 0.5,
      wait: async (ms) => {
        now += ms;
      },
      onWait: (wait) => waits.push(wait),
    });
    expect("response" in outcome && outcome.response.status).toBe(503);
    expect(attempts).toBeGreaterThan(5);
    expect(waits).toHaveLength(attempts - 1);
    expect(waits[0]).toMatchObject({ attempt: 1, reason: "503" });
    expect(now).toBeLessThanOrEqual(60_000);
    expect(now).toBeGreaterThan(40_000);
    expect(Math.max(...waits.map((wait) => wait.delayMs))).toBeLessThanOrEqual(DEFAULT_RETRY_POLICY.maxDelayMs);
    expect(waits.at(-1)!.budgetLeftMs).toBeGreaterThanOrEqual(0);
  });

  it("is set by FORGE_RETRY_BUDGET_MS or forge:retryBudgetMs (config first); the connection cap likewise", () => {
    expect(resolveTransport(undefined, { FORGE_RETRY_BUDGET_MS: "120000", FORGE_MAX_CONNECTIONS: "4" })).toEqual({
      retryBudgetMs: 120_000,
      maxConnections: 4,
    });
    const config = { get: (key: string) => ({ "forge:retryBudgetMs": "5000" })[key] };
    expect(resolveTransport(config, { FORGE_RETRY_BUDGET_MS: "120000" })).toEqual({ retryBudgetMs: 5000 });
    expect(() => resolveTransport(undefined, { FORGE_RETRY_BUDGET_MS: "soon" })).toThrow(
      /FORGE_RETRY_BUDGET_MS must be a whole number of milliseconds/,
    );
    expect(() => resolveTransport(undefined, { FORGE_MAX_CONNECTIONS: "0" })).toThrow(
      /FORGE_MAX_CONNECTIONS must be a whole number above 0/,
    );
  });
});

describe("against the emulator's rate limit (HTTP)", () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, rateLimit: { limit: 20, windowSeconds: 1 } });
  });
  afterAll(async () => emulator.close());

  it("spreads 60 concurrent reads over the windows with hardly a 429, and each wait is reported", async () => {
    const waits: string[] = [];
    const client = new ForgeClient({
      baseUrl: emulator.url,
      token: "forge-root-token",
      onRetryWait: (wait) => waits.push(`${wait.method} ${wait.path} ${wait.reason}`),
    });
    try {
      await client.request("GET", "/user"); // learns the budget
      const results = await Promise.all(Array.from({ length: 60 }, () => client.request("GET", "/user")));
      expect(results.every((result) => result.status === 200)).toBe(true);
      const log = (await (await emulator.admin("/requests")).json()) as { status: number }[];
      const throttled = log.filter((entry) => entry.status === 429).length;
      // The first window can be shared with requests counted before the client knew the budget.
      expect(throttled).toBeLessThanOrEqual(3);
      expect(waits).toHaveLength(throttled);
      expect(log.length).toBe(61 + throttled);
    } finally {
      await client.close();
    }
  });
});

describe("pacer and clocks", () => {
  it("reads the reset against the answer's Date, so a client clock far behind the forge's does not stretch the wait", async () => {
    let now = 1_700_000_000_000;
    const waits: number[] = [];
    const pacer = new RateLimitPacer(
      () => now,
      async (ms) => {
        waits.push(ms);
        now += ms;
      },
      () => 0,
    );
    // The forge's clock is ten minutes ahead; its window ends 5 s after its own now.
    const forgeNow = now + 600_000;
    pacer.observe({
      date: new Date(forgeNow).toUTCString(),
      "ratelimit-limit": "5",
      "ratelimit-remaining": "0",
      "ratelimit-reset": String(Math.floor(forgeNow / 1000) + 5),
    });
    await pacer.acquire();
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeLessThanOrEqual(6_000);
  });
});
