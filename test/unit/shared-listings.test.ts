/**
 * The listing reads share (engine/shared-listings.ts), against a scripted listing that counts its
 * pages: what each read is answered, and the requests a refresh costs, dense or sparse.
 */
import { describe, expect, it } from "vitest";
import type { ListingPage } from "../../provider/client";
import type { WireRecord } from "../../provider/engine/declaration";
import { MISSES_PER_PAGE, PagedListings } from "../../provider/engine/shared-listings";

/** A listing of `total` records with ids 1..total, 100 a page; `fail` makes page `fail` throw. */
function scripted(total: number, fail?: number) {
  const counts = { pages: 0 };
  async function* pages(): AsyncGenerator<ListingPage<WireRecord>> {
    for (let start = 0, number = 1; start < total; start += 100, number += 1) {
      counts.pages += 1;
      await Promise.resolve();
      if (number === fail) throw new Error("the forge answered 503");
      const items = Array.from({ length: Math.min(100, total - start) }, (_, index) => ({ id: start + index + 1, name: `label-${start + index + 1}` }));
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
  const answers = concurrent ? await Promise.all(ids.map(one)) : await ids.reduce(async (done, id) => [...(await done), await one(id)], Promise.resolve([] as Awaited<ReturnType<typeof one>>[]));
  return { answers, asked, requests: asked + listing.counts.pages };
}

describe("reads share their parent's listing a page at a time", () => {
  it("a dense refresh (every object of the parent, all at once) costs about a request a page", async () => {
    const listing = scripted(250);
    const { answers, requests } = await readAll(new PagedListings(), listing, Array.from({ length: 250 }, (_, index) => index + 1), true);
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

  it("an object missing from a listing read to its end is asked of the forge, never taken for gone (issue 34); one read twice is asked again", async () => {
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
