/**
 * The forge's clock as this process sees it: each answer's `Date` header (whole seconds) gives
 * the offset of the forge's clock to this machine's, kept per forge (base URL), whichever token
 * or client asked. Schedules that the forge's timestamps decide (a credential's rotation,
 * engine/rotation.ts) read the forge's time from here rather than trust the runner's clock, and
 * pay no request for it once the process has had an answer.
 */

/** Forge minus local, in milliseconds, by base URL: the latest answer's. */
const offsets = new Map<string, number>();

/**
 * Notes an answer's `Date` header. The header has whole seconds, so its middle is half a second
 * later; the answer was written somewhere between `sentMs` and `receivedMs` (this machine's clock).
 */
export function observeForgeDate(baseUrl: string, date: string | undefined, sentMs: number, receivedMs: number): void {
  const forge = Date.parse(date ?? "");
  if (Number.isFinite(forge)) offsets.set(baseUrl, forge + 500 - (sentMs + receivedMs) / 2);
}

/** The forge's clock minus this machine's, from its latest answer; undefined before any answer with a `Date`. */
export function forgeClockOffset(baseUrl: string): number | undefined {
  return offsets.get(baseUrl);
}
