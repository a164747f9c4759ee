/**
 * The service's rate limit (api-semantics.md, Errors): a budget of requests per fixed window
 * for each caller (its token; anonymous callers share one budget). Every API answer carries
 * `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (Unix seconds) and `RateLimit-Name`
 * while a budget is set, so that a client can slow down before it runs out; past the budget the
 * answer is 429 `Retry later\n` with `Retry-After` (seconds). Off unless configured: the option
 * `rateLimit`, `forge-emulator --rate-limit <requests>/<seconds>`, or `PUT /__emulator/rate-limit`.
 */

/** A budget: `limit` requests per window of `windowSeconds`. */
export interface RateLimitSettings {
  limit: number;
  windowSeconds: number;
}

/** The name the service gives its API throttle. */
const THROTTLE_NAME = "throttle_authenticated_api";

/** The decision for one request: its headers, and whether it is over the budget. */
export interface RateLimitDecision {
  headers: Record<string, string>;
  limited: boolean;
  retryAfterSeconds: number;
}

export class RateLimiter {
  private settings: RateLimitSettings | undefined;
  /** Requests counted per caller in the current window. */
  private counts = new Map<string, number>();
  private windowEnd = 0;

  constructor(private readonly initial?: RateLimitSettings) {
    this.set(initial);
  }

  /** Back to the budget given at start (`POST /__emulator/reset`). */
  reset(): void {
    this.set(this.initial);
  }

  /** Sets the budget (undefined or a limit of 0 turns the limit off) and starts a new window. */
  set(settings: RateLimitSettings | undefined): void {
    if (settings && (!Number.isInteger(settings.limit) || settings.limit < 0 || !(settings.windowSeconds > 0))) {
      throw new Error(`invalid rate limit ${JSON.stringify(settings)}: a whole number of requests per a positive number of seconds`);
    }
    this.settings = settings && settings.limit > 0 ? { ...settings } : undefined;
    this.counts.clear();
    this.windowEnd = 0;
  }

  current(): RateLimitSettings | null {
    return this.settings ? { ...this.settings } : null;
  }

  /** Counts a request of `caller`; undefined when no budget is set. */
  take(caller: string, now: number = Date.now()): RateLimitDecision | undefined {
    const settings = this.settings;
    if (!settings) return undefined;
    if (now >= this.windowEnd) {
      // Fixed windows aligned on the clock, as the service's throttle counts them.
      const windowMs = settings.windowSeconds * 1000;
      this.windowEnd = (Math.floor(now / windowMs) + 1) * windowMs;
      this.counts.clear();
    }
    const count = (this.counts.get(caller) ?? 0) + 1;
    this.counts.set(caller, count);
    const resetSeconds = Math.ceil(this.windowEnd / 1000);
    const retryAfterSeconds = Math.max(1, resetSeconds - Math.floor(now / 1000));
    return {
      limited: count > settings.limit,
      retryAfterSeconds,
      headers: {
        "RateLimit-Name": THROTTLE_NAME,
        "RateLimit-Limit": String(settings.limit),
        "RateLimit-Remaining": String(Math.max(0, settings.limit - count)),
        "RateLimit-Reset": String(resetSeconds),
      },
    };
  }
}
