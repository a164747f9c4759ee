/**
 * Reads of many objects under one parent share the parent's listing (issue 28): a refresh of a
 * group's 200 labels reads the group's labels a page at a time, two requests, instead of one GET
 * per label, which is what runs into a forge's rate limits. A listing is shared by the reads that
 * start while it is fresh (a few seconds: one refresh's burst of reads), each object read from
 * it once: a second read of the same object asks the forge again (a refresh reads each object
 * once; reading one twice means wanting it fresh). Listings are forgotten as soon as this process
 * writes an object of the kind, so a read after our own write never sees the page from before
 * it. What another client writes meanwhile is seen by the next listing, as a GET a few seconds
 * later would see it.
 *
 * Creates share listings too, for the look before each create (engine/recovery.ts): a listing
 * that says an identity is free saves the search; one that says it is taken is never believed
 * without a fresh look. Those are not forgotten on our own writes: a create only adds an identity
 * no other create of the run looks for, and a stale "free" costs the forge's refusal of a
 * duplicate, which a fresh look then names.
 */
import type { WireRecord } from "./declaration";

/**
 * The longest listing the looks before creates share, in pages of 100: beyond it, each create
 * searches for its own name (one request) rather than read a big parent whole every few seconds.
 */
export const SHARED_IDENTITY_LISTING_PAGES = 3;

/** How long a listing serves reads that start after it was asked for. */
export const SHARED_LISTING_WINDOW_MS = 5_000;

export class SharedListings<Listing = WireRecord[]> {
  private readonly listings = new Map<string, { askedAt: number; records: Promise<Listing>; served: Set<string> }>();

  constructor(
    private readonly windowMs = SHARED_LISTING_WINDOW_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The listing under `key` (a route and its parent) for a read of the object `id`: fetched once
   * for the reads of a window; undefined when this listing has served that object already (the
   * caller reads it on its own).
   */
  async take(key: string, id: string, fetch: () => Promise<Listing>): Promise<Listing | undefined> {
    let entry = this.listings.get(key);
    if (!entry || this.now() - entry.askedAt >= this.windowMs) {
      const fresh = { askedAt: this.now(), records: fetch(), served: new Set<string>() };
      this.listings.set(key, fresh);
      // A failed listing is not shared: the next read asks again.
      fresh.records.catch(() => {
        if (this.listings.get(key) === fresh) this.listings.delete(key);
      });
      entry = fresh;
    }
    if (entry.served.has(id)) return undefined;
    entry.served.add(id);
    return entry.records;
  }

  /** Forgets every listing: this process wrote an object of the kind (reads' listings only). */
  forget(): void {
    this.listings.clear();
  }
}
