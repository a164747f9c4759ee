/** One logged API request. `path` is the request path as sent (with /api/v4, no query). */
interface LoggedRequest {
  seq: number;
  method: string;
  path: string;
  /** Query parameters, without `private_token` (tokens are never logged). */
  query: Record<string, unknown>;
  /** Status answered; 0 when the connection was dropped by a fault. */
  status: number;
  /** Username of the caller, or null when anonymous or unknown. */
  user: string | null;
}

/** In-memory log of API requests, for tests that assert what a client sent. */
export class RequestLog {
  private entries: LoggedRequest[] = [];
  private lastSeq = 0;

  record(entry: Omit<LoggedRequest, "seq">): void {
    this.lastSeq += 1;
    const { private_token: _token, ...query } = entry.query;
    this.entries.push({ ...entry, query, seq: this.lastSeq });
  }

  /** Entries with a sequence number above `since` (all when omitted). */
  list(since = 0): LoggedRequest[] {
    return this.entries.filter((entry) => entry.seq > since);
  }

  /** Empties the log; sequence numbers keep growing so that `since` stays meaningful. */
  clear(): void {
    this.entries = [];
  }
}
