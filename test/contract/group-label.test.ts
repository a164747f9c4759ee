/**
 * GroupLabel against the emulator: names as the forge stores them, a nullable description,
 * the object a lost answer made named by its exact name, and archived with and without the flag.
 */
import { describe, expect, it } from "vitest";
import type { State } from "../../provider/engine/declaration";
import { ResourceOperations } from "../../provider/engine/operations";
import { declarations } from "../../provider/resources";
import { dynamicFaceOf } from "../../provider/runtime";
import { byField, instanceSettings, useWorld } from "./world";

const world = useWorld();

const label = () => dynamicFaceOf("GroupLabel");

describe("GroupLabel", () => {
  it("refuses a name with spaces at either end in check, saying what the forge would store", async () => {
    const result = await label().check({}, { group: "acme", name: " x", color: "red" });
    expect(byField(result.failures)).toEqual([
      { property: "name", reason: '" x" has spaces at either end, which the forge removes. Write "x".' },
    ]);
    const blank = await label().check({}, { group: "acme", name: "  ", color: "red" });
    expect(byField(blank.failures)?.map((failure) => failure.reason)).toEqual([
      '"  " is only whitespace, and the forge refuses a blank name. Write the label\'s name.',
    ]);
    expect((await label().check({}, { group: "acme", name: "x y", color: "red" })).failures).toBeUndefined();
  });

  it("takes a null description, which the forge stores as none", async () => {
    const inputs = { group: "acme", name: "plain", color: "red", description: null };
    expect((await label().check({}, inputs)).failures).toBeUndefined();
    const created = await label().create(inputs);
    const record = await world().api.request<{ description: unknown }>("GET", "/groups/:group/labels/:labelId", {
      group: "acme",
      labelId: created.outs["labelId"],
    });
    expect(record.body.description).toBeNull();
    expect(await label().diff(created.id, created.outs as State, inputs)).toMatchObject({ changes: false });
  });

  it("names the label a lost answer made by its exact name, even when the name is another label's id", async () => {
    const other = await world().api.request<{ id: number }>("POST", "/groups/:group/labels", {
      group: "acme",
      name: "other",
      color: "blue",
    });
    const name = String(other.body.id);
    await world().emulator.admin("/faults", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ method: "POST", path: "^/groups/[^/]+/labels$", status: 504, after: true, times: 1 }),
    });
    const error = (await label()
      .create({ group: "acme", name, color: "red" })
      .catch((caught: unknown) => caught)) as { candidates?: string[] };
    const listed = await world().api.list<{ id: number; name: string }>("/groups/:group/labels", { group: "acme" });
    const made = listed.find((candidate) => candidate.name === name);
    expect(listed).toHaveLength(2);
    expect(error.candidates).toEqual([`acme:${made?.id}`]);
    expect(made?.id).not.toBe(other.body.id);
  });

  it("archives with the labels_archive flag; without it the forge ignores archived, and the difference shows", async () => {
    const inputs = { group: "acme", name: "old", color: "red", archived: true };
    const ignored = await label().create(inputs);
    expect(ignored.outs["archived"]).toBe(false);
    expect(await label().diff(ignored.id, ignored.outs as State, inputs)).toMatchObject({ changes: true });
    // Dropping archived sends the reset (false), which the forge takes without the flag too.
    const { archived: _archived, ...dropped } = inputs;
    await label().update(ignored.id, ignored.outs as State, dropped);

    await instanceSettings(world(), { labels_archive: true });
    const archived = await label().create({ ...inputs, name: "older" });
    expect(archived.outs["archived"]).toBe(true);
  });
});

describe("GroupLabel reads share their group's listing", () => {
  it("a refresh of 200 labels reads their group a page at a time, sees each label's change and deletion, and a read after our own write is fresh", async () => {
    const api = world().api;
    const made: { id: number; name: string }[] = [];
    for (let index = 0; index < 200; index += 1) {
      made.push(
        (
          await api.request<{ id: number; name: string }>("POST", "/groups/:group/labels", {
            group: "acme",
            name: `shared-${index}`,
            color: "#FF0000",
          })
        ).body,
      );
    }
    const states = made.map((record) => ({ group: "acme", name: record.name, color: "#FF0000", labelId: record.id }));
    await api.request("PUT", "/groups/:group/labels/:labelId", { group: "acme", labelId: made[5]!.id, color: "#00FF00" });
    await api.request("DELETE", "/groups/:group/labels/:labelId", { group: "acme", labelId: made[9]!.id });

    // A fresh provider process (the runtime's operations are per process): one per `pulumi refresh`.
    const ops = new ResourceOperations(declarations.groupLabel, () => api);
    const before = await world().requestCount();
    const reads = await Promise.all(states.map((state) => ops.read(`acme:${state.labelId}`, state)));
    const requests = (await world().requestCount()) - before;
    // 200 labels and the seeds, three pages of 100 at most, each fetched once two reads have missed
    // the pages before it (those reads ask on their own): the bound is 20.
    expect(requests).toBeLessThanOrEqual(3 + 2 * 3);
    expect(reads[5]!.props["color"]).toBe("#00FF00");
    expect(reads[9]!.id).toBe("");
    expect(reads.filter((read) => read.id !== "").length).toBe(199);
    // One label's refresh in the same group of 200: its own GET, not the group's listing.
    const alone = new ResourceOperations(declarations.groupLabel, () => api);
    const beforeOne = await world().requestCount();
    expect((await alone.read(`acme:${made[1]!.id}`, states[1]!)).props["name"]).toBe(made[1]!.name);
    expect((await world().requestCount()) - beforeOne).toBe(1);

    // A second read of one object asks the forge again (a refresh reads each object once).
    await api.request("PUT", "/groups/:group/labels/:labelId", { group: "acme", labelId: made[3]!.id, description: "changed just now" });
    expect((await ops.read(`acme:${made[3]!.id}`, states[3]!)).props["description"]).toBe("changed just now");
    // Our own update, then a read: not served from the page read before it.
    const updated = await ops.update(`acme:${made[7]!.id}`, { ...reads[7]!.props }, { ...states[7]!, color: "#0000FF" });
    expect(updated.outs["color"]).toBe("#0000FF");
    expect((await ops.read(`acme:${made[7]!.id}`, updated.outs)).props["color"]).toBe("#0000FF");
  }, 120_000);
});

/**
 * Someone else makes the label `name` after this process read its group's listing: the listing
 * says "free", so the create is sent, the forge refuses the duplicate, and a fresh look names the
 * label in the error; theirs is left as they made it, and nothing else is made.
 */
async function refusedAndNamed(ops: ResourceOperations, name: string): Promise<void> {
  const api = world().api;
  const theirs = await api.request<{ id: number }>("POST", "/groups/:group/labels", { group: "acme", name, color: "#00FF00" });
  const refused = (await ops.create({ group: "acme", name, color: "#FF0000" }).catch((caught: unknown) => caught)) as Error & {
    candidates?: string[];
  };
  expect(refused.name).toBe("ExistingObjectError");
  expect(refused.candidates).toEqual([`acme:${theirs.body.id}`]);
  const log = (await (await world().emulator.admin("/requests")).json()) as { method: string; path: string; status: number }[];
  expect(log.filter((entry) => entry.method === "POST" && entry.path.endsWith("/labels")).at(-1)?.status).toBeGreaterThanOrEqual(400);
  const after = await api.list<{ name: string; color: string }>("/groups/:group/labels", { group: "acme" });
  expect(after.filter((record) => record.name === name)).toEqual([expect.objectContaining({ color: "#00FF00" })]);
}

describe("GroupLabel creates share their group's listing for the look before each create", () => {
  it("200 creates send about 210 requests, not 400; a label made by someone else after the listing is named, not duplicated; a name deleted in this process can be made again", async () => {
    const api = world().api;
    // A fresh provider process, as one `pulumi up` has: creates eight at a time, the engine's default on these machines.
    const ops = new ResourceOperations(declarations.groupLabel, () => api);
    const before = await world().requestCount();
    const names = Array.from({ length: 200 }, (_, index) => `made-${index}`);
    const created: { id: string; name: string }[] = [];
    for (let start = 0; start < names.length; start += 8) {
      created.push(
        ...(await Promise.all(
          names
            .slice(start, start + 8)
            .map(async (name) => ({ id: (await ops.create({ group: "acme", name, color: "#FF0000" })).id, name })),
        )),
      );
    }
    const requests = (await world().requestCount()) - before;
    expect(requests).toBeGreaterThanOrEqual(200);
    expect(requests).toBeLessThanOrEqual(210);
    const listed = await api.list<{ name: string }>("/groups/:group/labels", { group: "acme" });
    expect(
      listed
        .filter((record) => record.name.startsWith("made-"))
        .map((record) => record.name)
        .sort(),
    ).toEqual([...names].sort());

    // Someone makes "theirs" after the listing this process shares.
    await refusedAndNamed(ops, "theirs");

    // A label this process deletes is free again, though the shared listing still shows it.
    const first = created[0]!;
    await ops.delete(first.id, { group: "acme", name: first.name, color: "#FF0000", labelId: Number(first.id.split(":")[1]) });
    const again = await ops.create({ group: "acme", name: first.name, color: "#FF0000" });
    expect(again.id).not.toBe(first.id);
  }, 120_000);
});

describe("GroupLabel creates under a group of 1,000 labels share one listing too", () => {
  it("200 creates send about a tenth of a look each, not one; a label made by someone else after the listing is refused by the forge and named, never duplicated or taken over", async () => {
    const api = world().api;
    // Someone else's 1,000 labels: ten pages, well beyond the three the first creates read at once.
    const existing = Array.from({ length: 1000 }, (_, index) => `theirs-${index}`);
    for (let start = 0; start < existing.length; start += 50) {
      await Promise.all(
        existing
          .slice(start, start + 50)
          .map((name) => api.request("POST", "/groups/:group/labels", { group: "acme", name, color: "#00FF00" })),
      );
    }
    const ops = new ResourceOperations(declarations.groupLabel, () => api);
    const looks = async () =>
      ((await (await world().emulator.admin("/requests")).json()) as { method: string; path: string }[]).filter(
        (entry) => entry.method === "GET" && entry.path.endsWith("/groups/acme/labels"),
      ).length;
    const looksBefore = await looks();
    const names = Array.from({ length: 200 }, (_, index) => `burst-${index}`);
    for (let start = 0; start < names.length; start += 8) {
      await Promise.all(names.slice(start, start + 8).map((name) => ops.create({ group: "acme", name, color: "#FF0000" })));
    }
    const looked = (await looks()) - looksBefore;
    // Eleven pages (the seed's labels too): 3 at once, then one for every 4 creates that searched (listing GETs and searches both count): 3 + 8 x 5 = 43.
    expect(looked).toBeLessThanOrEqual(45);
    const listed = await api.list<{ name: string }>("/groups/:group/labels", { group: "acme" });
    expect(
      listed
        .filter((record) => record.name.startsWith("burst-"))
        .map((record) => record.name)
        .sort(),
    ).toEqual([...names].sort());

    // A label made by someone else after this process read the listing.
    await refusedAndNamed(ops, "made-late");
  }, 240_000);
});
