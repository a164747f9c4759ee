/**
 * A name is not an identity (docs/ownership.md): kinds addressed by a name or a parent (a
 * protected environment is `<project>:<name>`) keep in their state what the forge gives an object
 * and a re-made one cannot share (entry ids, creation time: the declaration's
 * `identity.evidence`). A destroy killed while its DELETE was in flight leaves the state holding
 * the object; when someone then makes it again, the address finds theirs. For every such kind,
 * on both faces, in process against the emulator: the evidence is kept through create, reads and
 * an import by id, out of the inputs; the object made again reads as gone (a refresh drops it),
 * an update refuses it and a delete leaves it, sending nothing; forge-recover's `standing` tells
 * it apart from the stack's own object and from nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasIdentity, type AnyDeclaration, type State } from "../../provider/engine/declaration";
import { declarations } from "../../provider/resources";
import { dynamicFaceOf } from "../../provider/runtime";
import { operations } from "../../provider/composition-root";
import { fixtures } from "./fixtures";
import { checked, FACES } from "./support/faces";
import { startWorld, type World } from "./world";

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => world?.close());

const withEvidence = (Object.values(declarations) as AnyDeclaration[]).filter(
  (declaration) => hasIdentity(declaration.identity) && declaration.identity.evidence,
);

it("is kept by the kinds whose address is a name or a parent and whose record carries what a re-made object cannot share", () => {
  // Settings, the avatar and the integrations' set-up are written over by design; allowlist
  // entries, feature gates and label subscriptions carry nothing of their own (docs/ownership.md).
  expect(withEvidence.map((declaration) => declaration.name).sort()).toEqual([
    "GroupProtectedEnvironment",
    "ProjectMember",
    "ProjectProtectedEnvironment",
    "VirtualRegistryCleanupPolicy",
  ]);
});

for (const face of FACES) {
  describe(face.name, () => {
    for (const declaration of withEvidence) {
      const type = declaration.name;
      const fixture = fixtures.find((candidate) => candidate.declaration === declaration)!;

      it(`${type}: keeps its evidence through reads and an import, and takes an object made again under its address for someone else's`, async () => {
        await world.reset();
        world.actAs("root");
        const inputs = await fixture.inputs(world);
        const made = await face.create(type, await checked(face, type, {}, inputs));
        const evidence = made.outs["__evidence"];
        expect(Array.isArray(evidence) && evidence.length > 0, "the state keeps the evidence").toBe(true);
        // A refresh, another refresh, an import by id: the same evidence, never among the inputs.
        const read = await face.read(type, made.id, made.outs);
        expect(read.outs["__evidence"]).toEqual(evidence);
        expect((await face.read(type, made.id, read.outs)).outs["__evidence"]).toEqual(evidence);
        const imported = await face.read(type, made.id, undefined);
        expect(imported.outs["__evidence"]).toEqual(evidence);
        expect(Object.keys(read.inputs).filter((key) => key.startsWith("__"))).toEqual([]);
        expect(await operations(type).standing(made.id, read.outs)).toBe("same");

        // A destroy killed while its DELETE was in flight: the forge deleted the object, the
        // state still holds it. Then someone makes it again, with the very same inputs.
        await dynamicFaceOf(type).delete(made.id, made.outs);
        expect(await operations(type).standing(made.id, read.outs)).toBe("gone");
        const theirs = await dynamicFaceOf(type).create((await dynamicFaceOf(type).check({}, inputs)).inputs ?? {});
        expect(theirs.id).toBe(made.id);
        expect(theirs.outs["__evidence"]).not.toEqual(evidence);

        const before = await world.writeCount();
        // A refresh drops the stack's resource; the next create then refuses the object by name.
        expect((await face.read(type, made.id, read.outs)).id).toBe("");
        expect(await operations(type).standing(made.id, read.outs)).toBe("another");
        // An update with the stale state writes nothing to it ...
        const news = await checked(face, type, read.outs, fixture.update ? fixture.update(inputs, world) : inputs);
        await expect(face.update(type, made.id, read.outs, news)).rejects.toThrow(/not the one this resource made.*Nothing was sent/);
        // ... and a destroy leaves it to whoever made it.
        await face.delete(type, made.id, read.outs);
        expect(await world.writeCount(), "nothing was written to their object").toBe(before);
        const still = await face.read(type, theirs.id, theirs.outs);
        expect(still.id).toBe(theirs.id);
        expect(still.outs["__evidence"]).toEqual(theirs.outs["__evidence"]);
        await dynamicFaceOf(type).delete(theirs.id, theirs.outs);
      });
    }
  });
}

it("kinds without evidence: an id that names the record proves it; a name alone proves nothing; a setting is written over by design", async () => {
  await world.reset();
  world.actAs("root");
  const standing = async (type: string, inputs: State) => {
    const made = await dynamicFaceOf(type).create((await dynamicFaceOf(type).check({}, inputs)).inputs ?? {});
    return operations(type).standing(made.id, made.outs as State);
  };
  expect(await standing("GroupLabel", { group: "acme", name: "standing", color: "red" })).toBe("same");
  expect(await standing("JobTokenScopeProjectAllowlistEntry", { project: "acme/web", targetProjectId: world.projectId("acme/api") })).toBe(
    "unproven",
  );
  expect(await standing("JobTokenScope", { project: "acme/web", enabled: true })).toBe("setting");
  expect(await operations("GroupLabel").standing("acme:999999", {})).toBe("gone");
});
