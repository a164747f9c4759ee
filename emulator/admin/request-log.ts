import { CREDENTIAL_PARAMETER, SECRET_MASK } from "../../api/credentials";

/** One logged API request. `path` is the request path as sent (with /api/v4, no query). */
interface LoggedRequest {
  seq: number;
  method: string;
  path: string;
  /**
   * Query parameters, without `private_token` (the caller's token is never logged) and with the
   * value of every other parameter named like a credential (`password`, `foo_token`) masked.
   * Bodies are not logged.
   */
  query: Record<string, unknown>;
  /** Status answered; 0 when the connection was dropped by a fault. */
  status: number;
  /** Username of the caller, or null when anonymous or unknown. */
  user: string | null;
  /** The entry of the route table (api/routes.ts) that served it (`groupLabels.create`); null when no route did. */
  route?: string | null;
  /**
   * Parameters the endpoint does not declare, which the emulator ignored as the service does
   * (wire names: `deploy_access_levels[0][group_inheritance_type]`); absent when none.
   */
  ignored?: string[];
}

/** How many requests the log keeps unless told otherwise. */
export const DEFAULT_REQUEST_LOG_SIZE = 10_000;

/**
 * The log of API requests, for tests that assert what a client sent: a ring buffer of the last
 * `size` requests, so that an emulator running for days holds a bounded amount of memory.
 * Sequence numbers keep growing across wraps and clears, so `since` keeps its meaning; requests
 * older than the ring are gone (`GET /__emulator/requests/last` tells how far it goes).
 */
export class RequestLog {
  private ring: (LoggedRequest | undefined)[];
  private lastSeq = 0;
  /** Sequence number of the oldest entry still held, minus one (entries after a clear start above it). */
  private floorSeq = 0;

  constructor(readonly size = DEFAULT_REQUEST_LOG_SIZE) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`request log size must be a positive integer, got ${size}`);
    this.ring = new Array<LoggedRequest | undefined>(size);
  }

  record(entry: Omit<LoggedRequest, "seq">): void {
    this.lastSeq += 1;
    const { private_token: _token, ...query } = entry.query;
    this.ring[this.lastSeq % this.size] = { ...entry, query: maskCredentials(query), seq: this.lastSeq };
  }

  /** Entries with a sequence number above `since` (all held when omitted), oldest first. */
  list(since = 0): LoggedRequest[] {
    const first = Math.max(since, this.floorSeq, this.lastSeq - this.size) + 1;
    const entries: LoggedRequest[] = [];
    for (let seq = first; seq <= this.lastSeq; seq += 1) {
      const entry = this.ring[seq % this.size];
      if (entry && entry.seq === seq) entries.push(entry);
    }
    return entries;
  }

  /** The last sequence number given (0 before any request) and the oldest one still held. */
  bounds(): { seq: number; oldest: number; size: number } {
    return { seq: this.lastSeq, oldest: Math.max(this.floorSeq, this.lastSeq - this.size) + 1, size: this.size };
  }

  /** Empties the log; sequence numbers keep growing so that `since` stays meaningful. */
  clear(): void {
    this.floorSeq = this.lastSeq;
    this.ring = new Array<LoggedRequest | undefined>(this.size);
  }
}

/** `query` with the value of every parameter named like a credential masked, at any depth (`hook[token]`). */
function maskCredentials(query: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(query).map(([name, value]) => [name, CREDENTIAL_PARAMETER.test(name) ? SECRET_MASK : maskedValue(value)]),
  );
}

function maskedValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskedValue);
  if (typeof value === "object" && value !== null) return maskCredentials(value as Record<string, unknown>);
  return value;
}
