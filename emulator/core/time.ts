/** Datetimes go on the wire as ISO 8601 UTC with milliseconds: `2016-07-02T10:11:12.000Z`. */
export function isoTimestamp(date: Date): string {
  return date.toISOString();
}

/** Adds milliseconds to an ISO timestamp and returns the ISO result. */
export function addMilliseconds(iso: string, ms: number): string {
  return new Date(Date.parse(iso) + ms).toISOString();
}

/**
 * The forge's clock: the machine's, moved forward by what an administrator asked
 * (`POST /__emulator/clock`), so that a test sees time pass (a token's age, a move's phases)
 * without waiting. Every timestamp the emulator writes and its `Date` header read it; a reset
 * puts it back on the machine's time. One per emulator: several run in one process.
 */
export class Clock {
  private offsetMs = 0;

  /** Milliseconds since the epoch, on the forge's clock. */
  now(): number {
    return Date.now() + this.offsetMs;
  }

  date(): Date {
    return new Date(this.now());
  }

  /** Now as the wire writes datetimes. */
  iso(): string {
    return isoTimestamp(this.date());
  }

  /** How far ahead of the machine's time the forge's clock is. */
  get offset(): number {
    return this.offsetMs;
  }

  /** Moves the clock forward (never back: the forge's time does not run backwards). */
  advance(ms: number): void {
    this.offsetMs += Math.max(0, ms);
  }

  reset(): void {
    this.offsetMs = 0;
  }
}
