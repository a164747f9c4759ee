/**
 * Spreads requests under the forge's rate limit. Every answer of a rate-limited forge carries
 * `RateLimit-Remaining` and `RateLimit-Reset` (api-semantics.md): the pacer keeps count of what
 * is left in the current window (the lower of the server's figure and its own count of requests
 * sent since, as answers overtake each other) and, when nothing is left, holds the next requests
 * until the window resets, each with a little jitter so they do not all leave at once. A 429 is
 * then the exception (another client on the same token, a clock apart) rather than the way the
 * client learns the limit; the retry layer still honours `Retry-After` when one comes.
 *
 * How many requests are in flight at once is undici's business: the Agent's `connections` cap
 * per origin queues the rest.
 */
import { setTimeout as sleep } from "node:timers/promises";

/** The longest the pacer holds a request, whatever the headers say. */
const MAX_WAIT_MS = 60_000;

export class RateLimitPacer {
  /** Requests the current window still allows, as far as this client knows; undefined when unknown. */
  #remaining: number | undefined;
  /** When the current window ends (ms since the epoch). */
  #resetAt = 0;
  /** The window the counts are for: its `RateLimit-Reset` as sent. */
  #window: number | undefined;
  /** The budget of a window (RateLimit-Limit), to assume once a window has passed. */
  #limit: number | undefined;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly wait: (ms: number) => Promise<unknown> = sleep,
    private readonly random: () => number = Math.random,
  ) {}

  /** Waits, if the window is spent, until the next one; then counts the request as sent. */
  async acquire(): Promise<void> {
    for (;;) {
      const now = this.now();
      if (this.#remaining !== undefined && now >= this.#resetAt) {
        // A new window: the full budget, until an answer says otherwise.
        this.#remaining = this.#limit;
      }
      if (this.#remaining === undefined || this.#remaining > 0) {
        if (this.#remaining !== undefined) this.#remaining -= 1;
        return;
      }
      await this.wait(this.#resetAt - now + this.random() * 500);
    }
  }

  /**
   * Reads the rate-limit headers of an answer (lower-cased names). A 429 or 503 with
   * `Retry-After` holds every request of this client until then, not only the one that was
   * refused: the others in flight would meet the same refusal.
   */
  observe(headers: Record<string, string>, status = 200): void {
    if ((status === 429 || status === 503) && headers["retry-after"] !== undefined) this.holdFor(headers["retry-after"], headers["date"]);
    const remaining = Number(headers["ratelimit-remaining"]);
    const reset = Number(headers["ratelimit-reset"]);
    if (headers["ratelimit-remaining"] === undefined || !Number.isFinite(remaining) || !Number.isFinite(reset)) return;
    const limit = Number(headers["ratelimit-limit"]);
    if (Number.isFinite(limit) && limit > 0) this.#limit = limit;
    // Unix seconds per the service, read against the answer's own Date so that a clock apart
    // from the forge's does not stretch the wait; a small value is a delta in seconds (some
    // proxies send one).
    const serverNow = Date.parse(headers["date"] ?? "");
    const delta = reset > 1e9 ? reset * 1000 - (Number.isNaN(serverNow) ? this.now() : serverNow) : reset * 1000;
    const resetAt = this.now() + Math.min(Math.max(0, delta), MAX_WAIT_MS);
    // The same window (the same reset announced) keeps the lower count: answers overtake each other.
    if (reset !== this.#window) {
      this.#window = reset;
      this.#remaining = remaining;
    } else {
      this.#remaining = Math.min(this.#remaining ?? remaining, remaining);
    }
    this.#resetAt = resetAt;
  }

  /** Nothing leaves until `Retry-After` (seconds, or an HTTP date read against the answer's Date) has passed. */
  private holdFor(retryAfter: string, date: string | undefined): void {
    const seconds = Number(retryAfter);
    const serverNow = Date.parse(date ?? "");
    const at = Date.parse(retryAfter);
    const delay = Number.isFinite(seconds)
      ? seconds * 1000
      : Number.isNaN(at)
        ? undefined
        : at - (Number.isNaN(serverNow) ? this.now() : serverNow);
    if (delay === undefined || delay <= 0) return;
    this.#remaining = 0;
    this.#resetAt = Math.max(this.#resetAt, this.now() + Math.min(delay, MAX_WAIT_MS));
  }
}
