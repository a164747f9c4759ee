/**
 * The listings reads and creates share (engine/shared-listings.ts), against a scripted listing that
 * counts its pages: what each read is answered, and the requests a refresh or a burst of creates
 * costs, dense or sparse.
 */
import { describe, expect, it } from "vitest";
import type { ListingPage } from "../../provider/client";
import type { WireRecord } from "../../provider/engine/declaration";
import {
  BurstListings,
  CREATES_PER_PAGE,
  EAGER_IDENTITY_PAGES,
  MISSES_PER_PAGE,
  PagedListings,
} from "../../provider/engine/shared-listings";

/** A listing of `total` records with ids 1..total, 100 a page; `fail` makes page `fail` throw. */
function scripted(total: number, fail?: number) {
  const counts = { pages: 0 };
  async function* pages(): AsyncGenerator<ListingPage<WireRecord>> {
    for (let start = 0, number = 1; start < total; start += 100, number += 1) {
      counts.pages += 1;
      await Promise.resolve();
      if (number === fail) throw new Error("the forge answered 503");
      const items = Array.from({ length: Math.min(100, total - start) }, (_, index) => ({
        id: start + index + 1,
        name: `label-${start + index + 1}`,
      }));
      yield { items, last: start + 100 >= total };
    }
  }
  return { counts, pages };
}

const keyOf = (record: WireRecord) => String(record["id"]);

/** Reads the ids through the listings; `asked` counts the reads told to ask the forge on their own. */
async function readAll(listings: PagedListings, listing: ReturnType<typeof scripted>, ids: number[], concurrent: boolean) {
  let asked = 0;
  const one = async (id: number) => {
    const answer = await listings.read("labels acme", String(id), listing.pages, keyOf);
    if (answer === "ask") asked += 1;
    return answer;
  };
  const answers = concurrent
    ? await Promise.all(ids.map(one))
    : await ids.reduce(async (done, id) => [...(await done), await one(id)], Promise.resolve([] as Awaited<ReturnType<typeof one>>[]));
  return { answers, asked, requests: asked + listing.counts.pages };
}

describe("reads share their parent's listing a page at a time", () => {
  it("a dense refresh (every object of the parent, all at once) costs about a request a page", async () => {
    const listing = scripted(250);
    const { answers, requests } = await readAll(
      new PagedListings(),
      listing,
      Array.from({ length: 250 }, (_, index) => index + 1),
      true,
    );
    expect(listing.counts.pages).toBe(3);
    expect(requests).toBeLessThanOrEqual(3 + 2 * MISSES_PER_PAGE);
    for (const [index, answer] of answers.entries()) {
      if (answer !== "ask") expect(answer.record["name"]).toBe(`label-${index + 1}`);
    }
  });

  it("a sparse refresh (a few objects of a parent of thousands, one after another) costs at most 1.5 requests a read, never the whole listing", async () => {
    const listing = scripted(5000);
    const ids = [4990, 12, 3000, 4500, 77, 2500];
    const { answers, requests } = await readAll(new PagedListings(), listing, ids, false);
    expect(requests).toBeLessThanOrEqual(1.5 * ids.length);
    expect(listing.counts.pages).toBeLessThan(50);
    for (const [index, answer] of answers.entries()) {
      if (answer !== "ask") expect(answer.record["id"]).toBe(ids[index]);
    }
  });

  it("an object missing from a listing read to its end is asked of the forge, never taken for gone; one read twice is asked again", async () => {
    const listings = new PagedListings();
    const listing = scripted(50);
    expect(await listings.read("labels acme", "7", listing.pages, keyOf)).toBe("ask");
    expect(await listings.read("labels acme", "999", listing.pages, keyOf)).toBe("ask");
    expect(await listings.read("labels acme", "8", listing.pages, keyOf)).toEqual({ record: { id: 8, name: "label-8" } });
    expect(await listings.read("labels acme", "8", listing.pages, keyOf)).toBe("ask");
    expect(listing.counts.pages).toBe(1);
  });

  it("a listing that fails is not shared: its reads ask on their own, and the next read starts another", async () => {
    const listings = new PagedListings();
    const failing = scripted(50, 1);
    const answers = await Promise.all(["1", "2", "3"].map((id) => listings.read("labels acme", id, failing.pages, keyOf)));
    expect(answers).toEqual(["ask", "ask", "ask"]);
    const working = scripted(50);
    expect(await listings.read("labels acme", "4", working.pages, keyOf)).toBe("ask");
    expect(await listings.read("labels acme", "5", working.pages, keyOf)).toEqual({ record: { id: 5, name: "label-5" } });
  });

  it("a listing serves the reads of a few seconds; later reads, and reads after our own write, start another", async () => {
    let now = 0;
    const listings = new PagedListings(5_000, () => now);
    const first = scripted(50);
    await listings.read("labels acme", "1", first.pages, keyOf);
    await listings.read("labels acme", "2", first.pages, keyOf);
    now = 6_000;
    const second = scripted(50);
    await listings.read("labels acme", "3", second.pages, keyOf);
    expect(await listings.read("labels acme", "4", second.pages, keyOf)).toEqual({ record: { id: 4, name: "label-4" } });
    listings.forget();
    const third = scripted(50);
    expect(await listings.read("labels acme", "5", third.pages, keyOf)).toBe("ask");
    expect([first.counts.pages, second.counts.pages, third.counts.pages]).toEqual([1, 1, 0]);
  });
});

/** The looks before creates of `names` through the listings, `parallel` at a time; `searched` counts the creates told to search on their own. */
async function lookAll(listings: BurstListings, listing: ReturnType<typeof scripted>, names: string[], parallel: number) {
  let searched = 0;
  const answers: (WireRecord[] | undefined)[] = [];
  for (let start = 0; start < names.length; start += parallel) {
    const batch = await Promise.all(names.slice(start, start + parallel).map((name) => listings.take("labels acme", name, listing.pages)));
    for (const answer of batch) if (answer === undefined) searched += 1;
    answers.push(...batch);
  }
  return { answers, searched, requests: searched + listing.counts.pages };
}

describe("the looks before a burst of creates share their parent's listing at any size of the parent", () => {
  it("a burst of 1,000 creates under a parent of 2,000 reads the parent once, about 0.1 requests a create", async () => {
    const listing = scripted(2000);
    const names = Array.from({ length: 1000 }, (_, index) => `new-${index}`);
    const { answers, requests } = await lookAll(new BurstListings(), listing, names, 8);
    expect(listing.counts.pages).toBe(20);
    expect(requests).toBeLessThanOrEqual(EAGER_IDENTITY_PAGES + (20 - EAGER_IDENTITY_PAGES) * (CREATES_PER_PAGE + 1) + 8);
    expect(requests / names.length).toBeLessThan(0.15);
    // Once read to its end, the listing answers whole: every record of the parent.
    expect(answers.at(-1)).toHaveLength(2000);
  });

  it("a few creates under a parent of thousands cost at most 1.25 requests each beyond the first pages, never the whole listing", async () => {
    const listing = scripted(5000);
    const names = ["a", "b", "c", "d", "e", "f", "g", "h"];
    const { requests } = await lookAll(new BurstListings(), listing, names, 1);
    expect(requests).toBeLessThanOrEqual(EAGER_IDENTITY_PAGES + 1.25 * names.length);
    expect(listing.counts.pages).toBeLessThan(10);
  });

  it("a short parent costs the burst a request a page; an identity looked up once is searched on its own the second time", async () => {
    const listing = scripted(120);
    const { answers, requests } = await lookAll(new BurstListings(), listing, ["x", "y", "x"], 3);
    expect(requests).toBe(2 + 1);
    expect(answers.map((answer) => answer?.length)).toEqual([120, 120, undefined]);
  });

  it("a listing serves a burst while creates keep coming, up to a minute; a pause of a few seconds, or a minute's age, starts another", async () => {
    let now = 0;
    const listings = new BurstListings(5_000, 60_000, () => now);
    const first = scripted(50);
    for (let second = 0; second < 50; second += 4) {
      now = second * 1000;
      expect(await listings.take("labels acme", `early-${second}`, first.pages)).toHaveLength(50);
    }
    now = 60_000;
    const second = scripted(60);
    expect(await listings.take("labels acme", "at-a-minute", second.pages)).toHaveLength(60);
    now = 66_000;
    const third = scripted(70);
    expect(await listings.take("labels acme", "after-a-pause", third.pages)).toHaveLength(70);
    expect([first.counts.pages, second.counts.pages, third.counts.pages]).toEqual([1, 1, 1]);
  });

  it("a listing that fails is not shared: its creates search on their own, and the next create starts another", async () => {
    const listings = new BurstListings();
    const failing = scripted(150, 2);
    expect(await listings.take("labels acme", "one", failing.pages)).toBeUndefined();
    const next = scripted(150);
    expect(await listings.take("labels acme", "two", next.pages)).toHaveLength(150);
  });
});
