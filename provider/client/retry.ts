/*
 * When and how long to retry, as pure functions and one loop ({@link runWithRetry}); the client
 * runs it as an undici interceptor (retry-interceptor.ts, which says why not undici's own retry
 * interceptor). An attempt is one dispatch read to the end, so a failure half-way through a body
 * is retried like any other (a JSON API does not honour the `Range` request undici would send).
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { HttpMethod } from "./route";

/**
 * How hard to retry: a budget of time, not of attempts, so that a forge restarting for an
 * upgrade (a minute of 503s and refused connections) costs a run time rather than the run.
 * Every field is optional; see {@link DEFAULT_RETRY_POLICY}.
 */
export interface RetryPolicy {
  /** Most attempts in all, the first included (default unlimited: the time budget decides; 1 disables retries). */
  maxAttempts?: number;
  /** Most milliseconds from the first attempt to giving up; no wait crosses it (default 60 000). */
  maxTotalMs?: number;
  /** Backoff before the second attempt, doubled each time, with jitter (default 500). */
  baseDelayMs?: number;
  /** Cap on one computed backoff; a server's Retry-After is honoured beyond it (default 10 000). */
  maxDelayMs?: number;
}

/** The defaults for {@link RetryPolicy}. */
export const DEFAULT_RETRY_POLICY: Readonly<Required<RetryPolicy>> = Object.freeze({
  maxAttempts: Number.POSITIVE_INFINITY,
  maxTotalMs: 60_000,
  baseDelayMs: 500,
  maxDelayMs: 10_000,
});

/** One wait before a retry, as reported to {@link RunWithRetryOptions.onWait}. */
export interface RetryWait {
  /** The attempt that failed (1 for the first). */
  attempt: number;
  /** What went wrong: `503`, `429`, `ECONNREFUSED`, ... */
  reason: string;
  /** How long the client waits before the next attempt. */
  delayMs: number;
  /** What is left of the time budget after this wait. */
  budgetLeftMs: number;
}

/** An HTTP answer as the retry layer sees it (body already read). */
export interface RawResponse {
  /** HTTP status. */
  status: number;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Parsed body. */
  body: unknown;
}

/** A request that got no HTTP answer. */
export interface NetworkFailure {
  /** Error code such as `ECONNRESET`, `UND_ERR_SOCKET`, `UND_ERR_HEADERS_TIMEOUT`. */
  code: string;
  /** The underlying error. */
  error: unknown;
}

/** One attempt's outcome. */
export type AttemptOutcome = { response: RawResponse } | { failure: NetworkFailure };

/**
 * What to do after an attempt: `done` (return it), `retry`, or `ambiguous` (the server may have
 * acted on a non-idempotent request whose answer was lost: never sent again here; the caller
 * decides, engine/recovery.ts for creates).
 */
export type RetryVerdict = "done" | "retry" | "ambiguous";

const IDEMPOTENT = new Set<HttpMethod>(["GET", "PUT", "DELETE"]);
const GATEWAY_STATUSES = new Set([502, 503, 504]);
/** The request never reached the server, so any method may be sent again. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "UND_ERR_CONNECT_TIMEOUT", "EAI_AGAIN"]);
/** The request may or may not have been processed. */
const DROPPED_CODES = new Set([
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ECONNABORTED",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

/**
 * Classifies an attempt. 429 is retried for every method (the server did nothing); 502/503/504,
 * dropped connections and timeouts are retried for GET/PUT/DELETE and ambiguous for POST/PATCH.
 */
export function classifyAttempt(method: HttpMethod, outcome: AttemptOutcome, acceptStatuses: readonly number[] = []): RetryVerdict {
  const idempotent = IDEMPOTENT.has(method);
  if ("response" in outcome) {
    const { status } = outcome.response;
    if ((status >= 200 && status < 300) || acceptStatuses.includes(status)) return "done";
    if (status === 429) return "retry";
    if (GATEWAY_STATUSES.has(status)) return idempotent ? "retry" : "ambiguous";
    return "done";
  }
  const { code } = outcome.failure;
  if (NOT_SENT_CODES.has(code)) return "retry";
  if (DROPPED_CODES.has(code)) return idempotent ? "retry" : "ambiguous";
  return "done";
}

/**
 * Milliseconds a server asks us to wait: `Retry-After` (seconds or HTTP date), else on a 429
 * `RateLimit-Reset` (Unix seconds; small values are taken as seconds from now). Undefined when absent.
 */
export function serverDelayMs(response: RawResponse | undefined, now: number = Date.now()): number | undefined {
  if (!response) return undefined;
  const retryAfter = response.headers["retry-after"]?.trim();
  if (retryAfter) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  const reset = response.headers["ratelimit-reset"]?.trim();
  if (response.status === 429 && reset) {
    const value = Number(reset);
    if (Number.isFinite(value)) {
      // Unix time per the service; some proxies send a delta instead (anything before 2001 is one).
      return Math.max(0, value > 1e9 ? value * 1000 - now : value * 1000);
    }
  }
  return undefined;
}

/**
 * Wait before attempt `attempt + 1`. A server-given delay is honoured, plus a little jitter so that
 * clients released at the same reset do not stampede; otherwise exponential backoff with "equal
 * jitter" (between half and all of `base * 2^(attempt-1)`, capped at maxDelayMs).
 */
export function retryDelayMs(
  attempt: number,
  response: RawResponse | undefined,
  policy: Required<RetryPolicy>,
  now: number = Date.now(),
  random: () => number = Math.random,
): number {
  const server = serverDelayMs(response, now);
  if (server !== undefined) return server + random() * Math.min(policy.baseDelayMs, 1000);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return ceiling / 2 + random() * (ceiling / 2);
}

/** Inputs of {@link runWithRetry}. */
export interface RunWithRetryOptions {
  /** Method of the request (decides idempotency). */
  method: HttpMethod;
  /** Sends the request once and reports the outcome; must not throw for HTTP or network failures. */
  send: () => Promise<AttemptOutcome>;
  /** The policy (defaults filled in). */
  policy: Required<RetryPolicy>;
  /** Statuses taken as success besides 2xx. */
  acceptStatuses?: readonly number[];
  /** Told of each wait before a retry (the provider logs it, so that a user sees why a run is slow). */
  onWait?: (wait: RetryWait) => void;
  /** Injected for tests. */
  now?: () => number;
  /** Injected for tests. */
  random?: () => number;
  /** Injected for tests. */
  wait?: (ms: number) => Promise<unknown>;
}

/** Final outcome of {@link runWithRetry}. */
export interface RetryResult {
  /** The last attempt's outcome. */
  outcome: AttemptOutcome;
  /** Attempts made. */
  attempts: number;
  /** True when the retries stopped because the next wait would cross `maxTotalMs`. */
  budgetSpent?: boolean;
  /** True when the request may have been acted on and its answer was lost (a POST or PATCH
   *  that got a 502/503/504 or a dropped connection): it was not sent again. */
  answerLost?: boolean;
}

/**
 * Sends until the outcome is final, the attempts are spent, or the next wait would cross the total
 * time bound. An ambiguous failure of a POST/PATCH is final and reported as an answer lost: only
 * the caller can tell whether sending it again is safe.
 */
export async function runWithRetry(options: RunWithRetryOptions): Promise<RetryResult> {
  const { method, send, policy, acceptStatuses = [] } = options;
  const now = options.now ?? Date.now;
  const wait = options.wait ?? sleep;
  const started = now();
  for (let attempt = 1; ; attempt++) {
    const outcome = await send();
    const verdict = classifyAttempt(method, outcome, acceptStatuses);
    if (verdict === "done") return { outcome, attempts: attempt };
    if (verdict === "ambiguous") return { outcome, attempts: attempt, answerLost: true };
    if (attempt >= policy.maxAttempts) return { outcome, attempts: attempt };
    const response = "response" in outcome ? outcome.response : undefined;
    const delay = retryDelayMs(attempt, response, policy, now(), options.random);
    const spent = now() - started;
    if (spent + delay > policy.maxTotalMs) return { outcome, attempts: attempt, budgetSpent: true };
    options.onWait?.({
      attempt,
      reason: response ? String(response.status) : "failure" in outcome ? outcome.failure.code : "unknown",
      delayMs: delay,
      budgetLeftMs: policy.maxTotalMs - spent - delay,
    });
    await wait(delay);
  }
}

/** Fills the defaults in. */
export function resolveRetryPolicy(policy: RetryPolicy | undefined): Required<RetryPolicy> {
  return {
    maxAttempts: Math.max(1, Math.floor(policy?.maxAttempts ?? DEFAULT_RETRY_POLICY.maxAttempts)),
    maxTotalMs: policy?.maxTotalMs ?? DEFAULT_RETRY_POLICY.maxTotalMs,
    baseDelayMs: policy?.baseDelayMs ?? DEFAULT_RETRY_POLICY.baseDelayMs,
    maxDelayMs: policy?.maxDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs,
  };
}
