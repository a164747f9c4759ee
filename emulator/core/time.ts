/** Datetimes go on the wire as ISO 8601 UTC with milliseconds: `2016-07-02T10:11:12.000Z`. */
export function isoTimestamp(date: Date = new Date()): string {
  return date.toISOString();
}

/** Adds milliseconds to an ISO timestamp and returns the ISO result. */
export function addMilliseconds(iso: string, ms: number): string {
  return new Date(Date.parse(iso) + ms).toISOString();
}
