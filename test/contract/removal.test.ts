/**
 * Removing an input resets it on the forge, and what the program never set is not drift: for
 * every declaration and every optional input, set it, apply, drop it from the program, apply,
 * and read the server. A drop the API can express is an update that sends the declared reset;
 * one it cannot is a replacement. Either way the next preview shows nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AnyDeclaration, State } from "../../provider/engine/declaration";
import { inputKeys, replacedOnRemoval, replacementKeys, resetValue } from "../../provider/engine/declaration";
import { sameValue } from "../../provider/engine/compare";
import { implementation } from "../../provider/runtime";
import { fixtures } from "./fixtures";
import { startWorld, type World } from "./world";

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => world?.close());

function optionalInputs(declaration: AnyDeclaration): string[] {
  return inputKeys(declaration).filter((key) => declaration.inputs.shape[key].safeParse(undefined).success);
}

function replacedWhenDropped(declaration: AnyDeclaration, key: string): boolean {
  return replacementKeys(declaration).includes(key) || replacedOnRemoval(declaration).includes(key);
}

it("every optional input of every declaration says what dropping it does, and has a fixture value", () => {
  for (const fixture of fixtures) {
    const declaration = fixture.declaration;
    for (const key of optionalInputs(declaration)) {
      const decided = replacedWhenDropped(declaration, key) || key in (declaration.resets ?? {});
      expect(decided, `${declaration.name}.${key}: declare a reset or replaceOnRemoval`).toBe(true);
    }
    if (optionalInputs(declaration).length > 0) expect(fixture.optional, `${declaration.name}: fixture needs optional values`).toBeDefined();
    for (const key of Object.keys(fixture.removalElsewhere ?? {})) expect(optionalInputs(declaration), `${declaration.name}.${key}`).toContain(key);
  }
});

for (const fixture of fixtures.filter((candidate) => candidate.optional)) {
  const declaration = fixture.declaration;
  describe(`${declaration.name}: dropping an optional input`, () => {
    let full: State;

    beforeAll(async () => {
      await world.reset();
      world.actAs("root");
      const inputs = await fixture.inputs(world);
      full = { ...inputs, ...fixture.optional!(inputs, world) };
    });

    for (const key of optionalInputs(declaration)) {
      if (fixture.removalElsewhere?.[key]) continue;
      if (replacedWhenDropped(declaration, key)) {
        it(`${key}: replaces the object, since the API cannot clear it`, async () => {
          const ops = implementation(declaration.name);
          const olds = { ...full, appliedInputs: inputKeys(declaration).filter((input) => full[input] !== undefined) };
          const { [key]: _dropped, ...rest } = full;
          expect(await ops.diff("id", olds, rest)).toMatchObject({ changes: true, replaces: expect.arrayContaining([key]) });
        });
        continue;
      }
      it(`${key}: is reset on the forge, and the next preview shows nothing`, async () => {
        const ops = implementation(declaration.name);
        const created = await ops.create(full);
        const { [key]: _dropped, ...rest } = full;
        const diff = await ops.diff(created.id, created.outs as State, rest);
        expect(diff, "dropping an input is a change").toMatchObject({ changes: true, replaces: [] });
        const updated = await ops.update(created.id, created.outs as State, rest);
        const read = await ops.read(created.id, updated.outs as State);
        // A reset function sees the state as update does: the last outputs under the new inputs.
        const expected = resetValue(declaration, key, { ...(created.outs as State), ...rest });
        expect(sameValue(declaration, key, expected, read.props?.[key]), `${key} on the forge: ${JSON.stringify(read.props?.[key])}`).toBe(true);
        expect(await ops.diff(created.id, read.props as State, rest)).toMatchObject({ changes: false });
        await ops.delete(created.id, read.props as State);
      });
    }
  });
}

it("an input the program never set is not managed: a server value for it is no diff", async () => {
  await world.reset();
  const label = implementation("GroupLabel");
  const created = await label.create({ group: "acme", name: "untouched", color: "red" });
  await world.api.request("PUT", "/groups/:group/labels/:labelId", { group: "acme", labelId: created.outs["labelId"], description: "set by hand" });
  const read = await label.read(created.id, created.outs as State);
  expect(await label.diff(created.id, read.props as State, { group: "acme", name: "untouched", color: "red" })).toMatchObject({ changes: false });
});
