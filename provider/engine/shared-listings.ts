/**
 * Reads of many objects under one parent share the parent's listing: a refresh of a
 * group's 200 labels reads the group's labels a page at a time, a few requests, instead of one
 * GET per label, which is what runs into a forge's rate limits. The listing is read lazily
 * ({@link PagedListings}): a page is fetched only when reads that missed the pages so far have
 * earned it (every {@link MISSES_PER_PAGE} misses, each of which read its object on its own), so a
 * refresh of a few labels in a group of thousands costs about what one GET each would, never the
 * whole listing: requests never exceed 1.5 per read, and a dense refresh costs about a request
 * per page. A listing is shared by the reads that start while it is fresh (a few seconds: one
 * refresh's burst of reads), each object read from it once: a second read of the same object asks
 * the forge again (a refresh reads each object once; reading one twice means wanting it fresh).
 * Listings are forgotten as soon as this process writes an object of the kind, so a read after
 * our own write never sees the page from before it. What another client writes meanwhile is seen
 * by the next listing, as a GET a few seconds later would see it. A listing answers "here it is"
 * or "ask", never "gone" ({@link ListingAnswer}): an object it misses is read with its own GET.
 *
 * Creates share listings too ({@link BurstListings}), for the look before each create
 * (engine/recovery.ts): a listing that says an identity is free saves the search; one that says
 * it is taken is never believed without a fresh look. A listing serves a run's whole burst of
 * creates (up to a minute), at any size of the parent: its first pages are read at once, the
 * rest as creates earn them, so a burst of hundreds costs a request per page and a few creates
 * under a big parent about a search each. Those are not forgotten on our own writes: a create only
 * adds an identity no other create of the run looks for, and a stale "free" (however old, or a
 * label that slid onto a page already read) costs the forge's refusal of a duplicate, which a
 * fresh look then names: never a duplicate or a take-over.
 */
import type { ListingPage } from "../client";
import type { WireRecord } from "./declaration";

/** The pages of a parent's listing the first creates of a burst read whole: a short parent (up to 300 objects) costs the burst that many requests. */
export const EAGER_IDENTITY_PAGES = 3;

/**
 * Beyond {@link EAGER_IDENTITY_PAGES}, a page is read for every this many creates that searched
 * for their own identity meanwhile: a few creates under a parent of thousands cost at most 1.25
 * requests each (never the whole listing), and a burst of hundreds reads the parent once and
 * then about nothing per create.
 */
export const CREATES_PER_PAGE = 4;

/** How long a listing serves reads that start after it was asked for; the looks before creates: after the last create that took it. */
export const SHARED_LISTING_WINDOW_MS = 5_000;

/** The longest one listing serves a burst of creates: then another is read, which shows what others made since. */
export const BURST_LISTING_MAX_MS = 60_000;

/**
 * A parent's listing read a page at a time (each page one request) as its users earn the pages;
 * the subclass keeps the records. A page that fails ends the sharing: `broken` drops the listing.
 */
abstract class PageByPage {
  protected pagesRead = 0;
  protected complete = false;
  protected failed = false;
  protected fetching: Promise<void> | undefined;

  constructor(
    private readonly pages: AsyncIterator<ListingPage<WireRecord>>,
    private readonly broken: () => void,
  ) {}

  protected abstract keep(records: WireRecord[]): void;

  /** Starts reading the next page; `fetching` until it is read. */
  protected fetchNext(): void {
    this.fetching = this.nextPage().finally(() => (this.fetching = undefined));
  }

  private async nextPage(): Promise<void> {
    try {
      const page = await this.pages.next();
      this.pagesRead += 1;
      if (page.done) {
        this.complete = true;
        return;
      }
      this.keep(page.value.items);
      this.complete = page.value.last;
    } catch {
      // A listing that fails is not shared: its users ask the forge on their own, and the next one starts another.
      this.failed = true;
      this.broken();
    }
  }
}

/** The listings of a kind, one per parent (a route and its parent), each replaced by a fresh one once `stale`. */
class ByParent<Listing> {
  private readonly listings = new Map<string, Listing>();

  constructor(private readonly stale: (listing: Listing) => boolean) {}

  /** The listing under `key`, or a fresh one (`make` is given what drops it: its pages failed). */
  get(key: string, make: (broken: () => void) => Listing): Listing {
    const found = this.listings.get(key);
    if (found && !this.stale(found)) return found;
    const fresh = make(() => {
      if (this.listings.get(key) === fresh) this.listings.delete(key);
    });
    this.listings.set(key, fresh);
    return fresh;
  }

  clear(): void {
    this.listings.clear();
  }
}

/** One parent's listing for the looks before a burst of creates, read a page at a time as the creates earn the pages. */
class BurstListing extends PageByPage {
  readonly askedAt: number;
  lastTakenAt: number;
  private readonly records: WireRecord[] = [];
  private readonly served = new Set<string>();
  private misses = 0;

  constructor(now: number, pages: AsyncIterator<ListingPage<WireRecord>>, broken: () => void) {
    super(pages, broken);
    this.askedAt = now;
    this.lastTakenAt = now;
  }

  protected keep(records: WireRecord[]): void {
    this.records.push(...records);
  }

  /** The whole listing, or undefined: it is not read to its end yet (or failed, or served `identity` already), so the create searches on its own. */
  async take(identity: string): Promise<WireRecord[] | undefined> {
    if (this.served.has(identity)) return undefined;
    this.served.add(identity);
    let fetched = false;
    for (;;) {
      if (this.fetching) await this.fetching;
      if (this.failed) return undefined;
      if (this.complete) return this.records;
      // Another create started the next page while this one waited: wait for that page too.
      if (this.fetching) continue;
      if (this.pagesRead >= EAGER_IDENTITY_PAGES) {
        // A create that read a page and still lacks the end searches, and is no new miss.
        if (fetched) return undefined;
        this.misses += 1;
        if (this.misses < CREATES_PER_PAGE) return undefined;
        this.misses = 0;
      }
      fetched = true;
      this.fetchNext();
    }
  }
}

/**
 * The listings the looks before creates share, one per parent ({@link BurstListing}), each
 * serving a run's burst of creates: while creates keep coming (each within
 * {@link SHARED_LISTING_WINDOW_MS} of the one before), up to {@link BURST_LISTING_MAX_MS}.
 */
export class BurstListings {
  private readonly listings: ByParent<BurstListing>;

  constructor(
    windowMs = SHARED_LISTING_WINDOW_MS,
    maxMs = BURST_LISTING_MAX_MS,
    private readonly now: () => number = Date.now,
  ) {
    this.listings = new ByParent((listing) => this.now() - listing.lastTakenAt >= windowMs || this.now() - listing.askedAt >= maxMs);
  }

  /**
   * The listing under `key` (a route and its parent), whole, for the look before a create of
   * `identity`; undefined when the create is to search on its own (the listing is not read to its
   * end yet, or it served that identity already).
   */
  take(key: string, identity: string, pages: () => AsyncIterator<ListingPage<WireRecord>>): Promise<WireRecord[] | undefined> {
    const listing = this.listings.get(key, (broken) => new BurstListing(this.now(), pages(), broken));
    listing.lastTakenAt = this.now();
    return listing.take(identity);
  }
}

/** Reads that missed the pages fetched so far, each read on its own, before the next page is fetched. */
export const MISSES_PER_PAGE = 2;

/**
 * What a shared listing says of one object: there (its record), or ask the forge. Never "gone":
 * an offset-paginated listing read while someone deletes or renames on an earlier page shifts,
 * and the objects that slide onto a page already read are on no page at all. An object
 * missing from a listing, even a whole one, is read with its own GET.
 */
export type ListingAnswer = { record: WireRecord } | "ask";

/** One parent's listing, fetched a page at a time as the reads under it earn the pages. */
class PagedListing extends PageByPage {
  readonly askedAt: number;
  private readonly records = new Map<string, WireRecord>();
  private readonly served = new Set<string>();
  private misses = 0;

  constructor(
    now: number,
    pages: AsyncIterator<ListingPage<WireRecord>>,
    private readonly keyOf: (record: WireRecord) => string,
    broken: () => void,
  ) {
    super(pages, broken);
    this.askedAt = now;
  }

  protected keep(records: WireRecord[]): void {
    for (const record of records) this.records.set(this.keyOf(record), record);
  }

  async read(id: string): Promise<ListingAnswer> {
    if (this.served.has(id)) return "ask";
    this.served.add(id);
    let fetched = false;
    for (;;) {
      if (this.fetching) await this.fetching;
      const known = this.known(id);
      if (known !== "unread") return known;
      // Another read started the next page while this one waited: wait for that page too.
      if (this.fetching) continue;
      // The read that fetched a page without its object asks on its own, and that is no new miss:
      // each page is paid for by MISSES_PER_PAGE reads that asked, so requests stay under 1.5 a read.
      if (fetched) return "ask";
      this.misses += 1;
      if (this.misses < MISSES_PER_PAGE) return "ask";
      this.misses = 0;
      fetched = true;
      this.fetchNext();
    }
  }

  private known(id: string): ListingAnswer | "unread" {
    if (this.failed) return "ask";
    const record = this.records.get(id);
    if (record) return { record };
    // Read whole without it: a page that shifted while it was read, or the object is gone. Its own GET tells.
    return this.complete ? "ask" : "unread";
  }
}

/** The listings reads share, one per parent, read lazily ({@link PagedListing}). */
export class PagedListings {
  private readonly listings: ByParent<PagedListing>;

  constructor(
    windowMs = SHARED_LISTING_WINDOW_MS,
    private readonly now: () => number = Date.now,
  ) {
    this.listings = new ByParent((listing) => this.now() - listing.askedAt >= windowMs);
  }

  /** What the listing under `key` (a route and its parent) says of the object `id`, or "ask" to read it on its own. */
  read(
    key: string,
    id: string,
    pages: () => AsyncIterator<ListingPage<WireRecord>>,
    keyOf: (record: WireRecord) => string,
  ): Promise<ListingAnswer> {
    return this.listings.get(key, (broken) => new PagedListing(this.now(), pages(), keyOf, broken)).read(id);
  }

  /** Forgets every listing: this process wrote an object of the kind. */
  forget(): void {
    this.listings.clear();
  }
}

/** Whole listings read before one that never agrees with the one before it is given up on. */
export const SETTLE_TRIES = 5;

/**
 * A whole listing that can stand as proof that an object is not in it, for kinds with no read of
 * one object (an allowlist entry, a client key) and for the search after a lost create's answer
 * (engine/recovery.ts). A single read of an offset-paginated listing proves nothing absent: a
 * deletion on a page already read shifts the next pages, and what slides onto the read page is
 * on no page. Two reads one after the other that list the same objects are taken as
 * the forge's view: for both to miss one object, someone would have to shift the listing the same
 * way at the same point of each read. `first` is a listing the caller already read. A listing
 * that differs every time ({@link SETTLE_TRIES} reads) is an error: nothing is concluded from it.
 */
export async function settledListing(
  what: string,
  read: () => Promise<WireRecord[]>,
  keyOf: (record: WireRecord) => string,
  first?: WireRecord[],
): Promise<WireRecord[]> {
  const keys = (records: WireRecord[]) => [...new Set(records.map(keyOf))].sort().join("\n");
  let previous = first ?? (await read());
  for (let tries = first ? 1 : 2; ; tries += 1) {
    const current = await read();
    if (keys(current) === keys(previous)) return current;
    if (tries >= SETTLE_TRIES) {
      throw new Error(
        `${what}: the listing changed each of the ${SETTLE_TRIES} times it was read (others are writing it now), so nothing is concluded from it about an object it does not show. Run again.`,
      );
    }
    previous = current;
  }
}
