/**
 * A listing only ever says "here it is". Listings are offset-paginated: when someone
 * deletes or renames on a page already read, the next pages shift, and what slides onto the read
 * page is on no page at all. The emulator holds one page's request (a latency fault on its
 * `page` query) while another user deletes and renames on the pages before it; every read must
 * still find every object that is there, through the shared listing (labels), a listing with no
 * read of one object (client keys), and the search after a lost create's answer.
 */
import { describe, expect, it } from "vitest";
import type { State } from "../../provider/engine/declaration";
import { ResourceOperations } from "../../provider/engine/operations";
import { settledListing, SETTLE_TRIES } from "../../provider/engine/shared-listings";
import { readForge } from "../../provider/adopt/read";
import { declarations } from "../../provider/resources";
import { useWorld } from "./world";

const world = useWorld();

async function admin(method: string, route: string, body?: unknown): Promise<unknown> {
  const response = await world().emulator.admin(route, {
    method,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status).toBeLessThan(300);
  return response.status === 204 ? undefined : response.json();
}

/** Holds the listing's page `page` until {@link release}; `after` earlier requests for that page pass first. Returns the fault's id. */
async function holdPage(path: string, page: number, after = 0): Promise<number> {
  if (after > 0) await admin("POST", "/faults", { method: "GET", path, query: { page }, times: after });
  return ((await admin("POST", "/faults", { method: "GET", path, query: { page }, latencyMs: 600_000, times: 1 })) as { id: number }).id;
}

async function untilHeld(): Promise<void> {
  for (;;) {
    const { held } = (await admin("GET", "/faults")) as { held: number };
    if (held > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Lets the requests one fault holds go on. */
const release = (id: number) => admin("DELETE", `/faults/${id}`);

/** The GETs the forge answered since the request log held `since` entries: the reads' cost, without the other user's writes. */
async function readsSince(since: number): Promise<{ path: string; status: number }[]> {
  const log = (await admin("GET", "/requests")) as { method: string; path: string; status: number }[];
  return log.slice(since).filter((entry) => entry.method === "GET");
}

type Label = { id: number; name: string };

async function makeLabels(names: string[]): Promise<Label[]> {
  const made: Label[] = [];
  for (const name of names)
    made.push((await world().api.request<Label>("POST", "/groups/:group/labels", { group: "acme", name, color: "#FF0000" })).body);
  return made;
}

const padded = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, index) => `${prefix}-${String(index).padStart(3, "0")}`);

describe("a shifting page is not a deletion", () => {
  it("a refresh of 330 labels, with a person deleting and renaming her own labels on earlier pages while pages 2 and 3 are read, finds every label", async () => {
    const api = world().api;
    // Hers sort first (the listing is by title), the stack's 330 after: pages 1 to 4 of 100.
    const hers = await makeLabels(padded("a-hers", 40));
    const ours = await makeLabels(padded("b-ours", 330));
    const states: State[] = ours.map((label) => ({ group: "acme", name: label.name, color: "#FF0000", labelId: label.id }));
    const second = await holdPage("^/groups/acme/labels$", 2);
    const third = await holdPage("^/groups/acme/labels$", 3);

    const ops = new ResourceOperations(declarations.groupLabel, () => api);
    const before = await world().requestCount();
    const reading = Promise.all(states.map((state) => ops.read(`acme:${String(state["labelId"])}`, state)));

    // First shift: page 1 was read; 10 of hers are deleted and 5 renamed to the end, so 15 of ours slide onto page 1.
    await untilHeld();
    for (const label of hers.slice(0, 10))
      await api.request("DELETE", "/groups/:group/labels/:labelId", { group: "acme", labelId: label.id });
    for (const label of hers.slice(10, 15))
      await api.request("PUT", "/groups/:group/labels/:labelId", { group: "acme", labelId: label.id, new_name: `z-${label.name}` });
    await release(second);
    // Second shift, while page 3 is held: 12 more of hers go.
    await untilHeld();
    for (const label of hers.slice(15, 27))
      await api.request("DELETE", "/groups/:group/labels/:labelId", { group: "acme", labelId: label.id });
    await release(third);

    const reads = await reading;
    const requests = (await readsSince(before)).length;
    expect(reads.filter((read) => read.id === "").map((read) => read.props["name"])).toEqual([]);
    expect(reads.map((read) => read.props["name"])).toEqual(ours.map((label) => label.name));
    // Four pages, the reads that earned them (two a page), and one GET for each label the shifts hid (15 + 12): no more.
    expect(requests).toBeLessThanOrEqual(4 + 2 * 4 + 27);
  }, 120_000);

  it("a label deleted for real is still read as gone: by its own GET, after the listing missed it", async () => {
    const api = world().api;
    const ours = await makeLabels(padded("ours", 120));
    await api.request("DELETE", "/groups/:group/labels/:labelId", { group: "acme", labelId: ours[7]!.id });
    const ops = new ResourceOperations(declarations.groupLabel, () => api);
    const reads = await Promise.all(
      ours.map((label) => ops.read(`acme:${label.id}`, { group: "acme", name: label.name, color: "#FF0000", labelId: label.id })),
    );
    expect(reads.filter((read) => read.id === "").map((read) => read.props["name"] ?? ours[reads.indexOf(read)]!.name)).toEqual([
      ours[7]!.name,
    ]);
    expect((await readsSince(0)).filter((entry) => entry.path.endsWith(`/labels/${ours[7]!.id}`)).map((entry) => entry.status)).toEqual([
      404,
    ]);
  }, 60_000);
});

describe("forge-adopt", () => {
  it("adopts every label of a group whose listing shifted while it was read, and none that was deleted meanwhile", async () => {
    const api = world().api;
    const hers = await makeLabels(padded("a-hers", 100));
    const ours = await makeLabels(padded("b-ours", 20));
    const held = await holdPage("^/groups/acme/labels$", 2);
    const adopting = readForge(api, { groups: ["acme"] });
    await untilHeld();
    for (const label of hers.slice(0, 15))
      await api.request("DELETE", "/groups/:group/labels/:labelId", { group: "acme", labelId: label.id });
    await release(held);
    const adopted = (await adopting).resources
      .filter((resource) => resource.declaration.name === "GroupLabel")
      .map((resource) => resource.inputs["name"]);
    expect(adopted.sort()).toEqual([...hers.slice(15), ...ours].map((label) => label.name).sort());
  }, 60_000);
});

describe("a kind read from its listing (no read of one object) is gone only when listings that agree miss it", () => {
  const project = "acme/web";
  const keysPath = "^/projects/[^/]+/error_tracking/client_keys$";
  const makeKeys = async (count: number) => {
    const made: { id: number }[] = [];
    for (let index = 0; index < count; index += 1)
      made.push((await world().api.request<{ id: number }>("POST", "/projects/:project/error_tracking/client_keys", { project })).body);
    return made;
  };

  it("a client key that slid onto a page already read is found, not dropped", async () => {
    const api = world().api;
    const keys = await makeKeys(110);
    const ours = keys[104]!;
    const ops = new ResourceOperations(declarations.errorTrackingClientKey, () => api);
    const held = await holdPage(keysPath, 2);
    const reading = ops.read(`${project}:${ours.id}`, { project, keyId: ours.id });
    await untilHeld();
    // Someone deletes ten keys of page 1: ours moves from page 2 to page 1, which was read.
    for (const key of keys.slice(0, 10))
      await api.request("DELETE", "/projects/:project/error_tracking/client_keys/:keyId", { project, keyId: key.id });
    await release(held);
    expect((await reading).id).toBe(`${project}:${ours.id}`);
  }, 60_000);

  it("a key deleted for real is gone after two listings agree", async () => {
    const api = world().api;
    const keys = await makeKeys(3);
    await api.request("DELETE", "/projects/:project/error_tracking/client_keys/:keyId", { project, keyId: keys[1]!.id });
    const ops = new ResourceOperations(declarations.errorTrackingClientKey, () => api);
    const before = await world().requestCount();
    expect((await ops.read(`${project}:${keys[1]!.id}`, { project, keyId: keys[1]!.id })).id).toBe("");
    expect((await world().requestCount()) - before).toBe(2);
  });

  it("after a lost create's answer, a listing that shifted does not hide the key the create made, so it is not made twice", async () => {
    const api = world().api;
    const keys = await makeKeys(105);
    // The create's key is the 106th: page 2, until ten keys of page 1 go while page 2 of the look after the lost answer is held.
    await admin("POST", "/faults", { method: "POST", path: keysPath, status: 502, after: true, times: 1 });
    const held = await holdPage(keysPath, 2, 1);
    const ops = new ResourceOperations(declarations.errorTrackingClientKey, () => api);
    const creating = ops.create({ project }).catch((error: unknown) => error);
    await untilHeld();
    for (const key of keys.slice(0, 10))
      await api.request("DELETE", "/projects/:project/error_tracking/client_keys/:keyId", { project, keyId: key.id });
    await release(held);
    const error = (await creating) as Error & { candidates?: string[] };
    const left = await api.list<{ id: number }>("/projects/:project/error_tracking/client_keys", { project });
    expect(left).toHaveLength(96);
    const made = left.at(-1)!;
    expect(made.id).toBeGreaterThan(keys.at(-1)!.id);
    expect(error.name).toBe("UnprovenCreateError");
    expect(error.candidates).toEqual([`${project}:${made.id}`]);
  }, 60_000);
});

it("a listing that changes every time it is read concludes nothing", async () => {
  let reads = 0;
  const changing = async () => [{ id: (reads += 1) }];
  await expect(settledListing("acme:1", changing, (record) => String(record["id"]))).rejects.toThrow(
    /changed each of the 5 times it was read .* nothing is concluded/,
  );
  expect(reads).toBe(SETTLE_TRIES);
  let calm = 0;
  expect(
    await settledListing(
      "acme:1",
      async () => [{ id: 1 + Math.min((calm += 1), 2) }],
      (record) => String(record["id"]),
    ),
  ).toEqual([{ id: 3 }]);
  expect(calm).toBe(3);
});
