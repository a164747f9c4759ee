/**
 * An ancestor's object is not its subgroup's. A group's label reads show its
 * ancestors' labels too, and a name is unique across a group and its ancestors, but the forge
 * changes and deletes a label only through its own group. So a label of `acme` read through
 * `acme/platform` is named by its import id in `acme`, on both faces: a create of its name fails
 * naming it, an import into the subgroup fails naming it, and a state that holds it (an import
 * made before this rule) is not claimed by a refresh, nor reported changed or deleted.
 */
import { describe, expect, it } from "vitest";
import type { State } from "../../provider/engine/declaration";
import { ResourceOperations } from "../../provider/engine/operations";
import { readTargets } from "../../provider/adopt/read";
import { declarations } from "../../provider/resources";
import { FACES, type Face } from "./support/faces";
import { useWorld } from "./world";

const world = useWorld();
const TYPE = "GroupLabel";

/** A label `acme` holds, made by a person. */
async function ancestorsLabel(name = "x"): Promise<number> {
  return (await world().api.request<{ id: number }>("POST", "/groups/:group/labels", { group: "acme", name, color: "#00FF00" })).body.id;
}

async function labelOf(group: string, id: number): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await world().api.request<Record<string, unknown>>(
    "GET",
    "/groups/:group/labels/:labelId",
    { group, labelId: id, include_ancestor_groups: false },
    { acceptStatuses: [404] },
  );
  return { status: response.status, body: response.body };
}

async function writesSince(count: number): Promise<{ method: string; path: string; status: number }[]> {
  const log = (await (await world().emulator.admin("/requests")).json()) as { method: string; path: string; status: number }[];
  return log.slice(count).filter((entry) => entry.method !== "GET");
}

/** The import option with the program's inputs (dynamic), or `pulumi import` by the id alone (plugin). */
async function importInto(face: Face, inputs: State, id: string): Promise<{ id: string; outs: State }> {
  if (face.adopt) return face.adopt(TYPE, (await face.check(TYPE, {}, inputs)).sent, id);
  const read = await face.read(TYPE, id, undefined);
  if (read.id === "") throw new Error(`${TYPE}: ${id} does not exist`);
  return read;
}

async function failure(work: Promise<unknown>): Promise<Error> {
  const outcome = await work.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(outcome, "the step fails").toBeInstanceOf(Error);
  return outcome as Error;
}

describe.each(FACES.map((face) => [face.name, face] as const))("%s face: an ancestor's label is not its subgroup's", (_name, face) => {
  it("a create of a name the parent group holds fails naming the label by its import id in the parent, and makes nothing", async () => {
    const id = await ancestorsLabel();
    // The group by its id: its ancestors come from its full path.
    for (const group of ["acme/platform", world().groupId("acme/platform")]) {
      const before = await world().requestCount();
      const checked = await face.check(TYPE, {}, { group, name: "x", color: "red" });
      const error = await failure(face.create(TYPE, checked.sent));
      expect(error.message).toContain(`cannot be created: it exists in the ancestor group "acme" as "acme:${id}"`);
      expect(error.message).toContain(`import "acme:${id}" into a GroupLabel whose group is "acme"`);
      expect(error.message).not.toContain(`platform:${id}`);
      // Nothing the forge took. The look before the create finds the name taken; only a listing
      // the process's creates shared a few seconds ago (an earlier test's) can say it is free, and
      // then the forge refuses the POST (docs/ownership.md, "Creates share a look").
      expect((await writesSince(before)).filter((entry) => entry.status < 400)).toEqual([]);
    }
    expect(await world().api.list("/groups/:group/labels", { group: "acme/platform", include_ancestor_groups: false })).toEqual([]);
    expect((await labelOf("acme", id)).body).toMatchObject({ name: "x", color: "#00FF00" });
  });

  it("an import of the parent's label into the subgroup fails naming the right import id, which imports", async () => {
    const id = await ancestorsLabel();
    const inputs = { group: "acme/platform", name: "x", color: "#00FF00" };
    const error = await failure(importInto(face, inputs, `acme/platform:${id}`));
    expect(error.message).toContain(
      `cannot import "acme/platform:${id}": it is the ancestor group "acme"'s object (import id "acme:${id}")`,
    );
    const imported = await importInto(face, { ...inputs, group: "acme" }, `acme:${id}`);
    expect(imported.id).toBe(`acme:${id}`);
  });

  it("a state that holds the parent's label as the subgroup's is not claimed: refresh drops it, update and delete fail naming it, the label stays", async () => {
    const id = await ancestorsLabel();
    const own = await importInto(face, { group: "acme", name: "x", color: "#00FF00" }, `acme:${id}`);
    // What an import before this rule wrote: the parent's label under the subgroup's id.
    const stale = { ...own.outs, group: "acme/platform" };
    const wrongId = `acme/platform:${id}`;
    const before = await world().requestCount();

    expect((await face.read(TYPE, wrongId, stale)).id).toBe("");
    const checked = await face.check(TYPE, stale, { group: "acme/platform", name: "x", color: "#0000FF" });
    const update = await failure(face.update(TYPE, wrongId, stale, checked.sent));
    expect(update.message).toContain(`has no such object; this state holds the ancestor group "acme"'s (import id "acme:${id}")`);
    expect(update.message).toContain("Nothing was changed. Run `pulumi refresh`");
    const destroy = await failure(face.delete(TYPE, wrongId, stale));
    expect(destroy.message).toContain(
      `this state holds the ancestor group "acme"'s (import id "acme:${id}"), which this resource does not own. Nothing was deleted.`,
    );

    // The forge answered 404 to the subgroup's PUT and DELETE; the label is as it was.
    expect((await writesSince(before)).map((entry) => entry.method)).toEqual(["PUT", "DELETE"]);
    expect((await labelOf("acme", id)).body).toMatchObject({ name: "x", color: "#00FF00" });
  });

  it("the subgroup's own label deleted by hand is gone for a refresh and a delete", async () => {
    const mine = await face.create(TYPE, (await face.check(TYPE, {}, { group: "acme/platform", name: "mine", color: "red" })).sent);
    await world().api.request("DELETE", "/groups/:group/labels/:labelId", { group: "acme/platform", labelId: mine.outs["labelId"] });
    expect((await face.read(TYPE, mine.id, mine.outs)).id).toBe("");
    await face.delete(TYPE, mine.id, mine.outs);
  });
});

describe("an ancestor's label and the tools", () => {
  it("a provider process that has shared no listing yet sends no create: the look before it names the parent's label", async () => {
    const id = await ancestorsLabel();
    const ops = new ResourceOperations(declarations.groupLabel, () => world().api);
    const before = await world().requestCount();
    const error = await failure(ops.create({ group: "acme/platform", name: "x", color: "red" }));
    expect(error.name).toBe("InheritedObjectError");
    expect((error as Error & { importId?: string }).importId).toBe(`acme:${id}`);
    expect(await writesSince(before)).toEqual([]);
  });

  it("forge-adopt --from-terraform leaves out a state's label that is the parent's, naming its import id there", async () => {
    const id = await ancestorsLabel();
    const adoption = await readTargets(world().api, [
      {
        key: "groupLabel",
        scope: "group",
        path: "acme/platform",
        idState: { group: "acme/platform", labelId: id },
        origin: "gitlab_group_label.x",
      },
    ]);
    expect(adoption.resources).toEqual([]);
    expect(adoption.skipped).toEqual([
      expect.objectContaining({ what: "gitlab_group_label.x", left: true, reason: expect.stringContaining(`(import id "acme:${id}")`) }),
    ]);
  });

  it("a pending create of a name the parent holds has no candidate: no create in the subgroup made it", async () => {
    await ancestorsLabel();
    const ops = new ResourceOperations(declarations.groupLabel, () => world().api);
    expect(await ops.pendingCreateCandidates({ group: "acme/platform", name: "x", color: "red" })).toEqual({
      rule: "identity",
      candidates: [],
    });
    // The subgroup's own label of the name is one.
    await world().api.request("POST", "/groups/:group/labels", { group: "acme/platform", name: "y", color: "red" });
    await ancestorsLabel("y");
    expect((await ops.pendingCreateCandidates({ group: "acme/platform", name: "y", color: "red" })).candidates).toHaveLength(1);
  });
});
