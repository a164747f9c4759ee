/**
 * The contract suite: every declaration, through the real engine and client, against the
 * emulator over HTTP on loopback. One table row per resource (fixtures.ts); the same steps
 * for all of them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ForgeApiError } from "../../provider/client";
import { ExistingObjectError } from "../../provider/engine/recovery";
import type { Request, State } from "../../provider/engine/declaration";
import { inputKeys, optionsOf, routeOf } from "../../provider/engine/declaration";
import { parseRoute } from "../../provider/client";
import type { HttpMethod } from "../../api";
import type { DynamicOperations } from "../../provider/faces/dynamic";
import { implementation } from "../../provider/runtime";
import { declarations } from "../../provider/resources";
import { fixtures } from "./fixtures";
import { startWorld, type World } from "./world";

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => world?.close());

it("has a fixture for every declaration", () => {
  expect(fixtures.map((fixture) => fixture.declaration.name).sort()).toEqual(
    Object.values(declarations).map((declaration) => declaration.name).sort(),
  );
});

/** Pulumi passes inputs with the serialized provider beside them; the engine must ignore it. */
const asPulumiInputs = (inputs: State): State => ({ ...inputs, __provider: "serialized provider" });

for (const fixture of fixtures) {
  describe(fixture.declaration.name, () => {
    let ops: DynamicOperations;
    let inputs: State;
    let id: string;
    let outs: State;

    beforeAll(async () => {
      await world.reset();
      world.actAs("root");
      ops = implementation(fixture.declaration.name);
      inputs = await fixture.inputs(world);
    });

    it("rejects invalid inputs in check, naming the field, before any request", async () => {
      const before = await world.requestCount();
      const result = await ops.check({}, asPulumiInputs(fixture.invalid.inputs(inputs)));
      // On the resource, the field leading the reason: the engine prints no input value with it.
      expect(result.failures?.map((failure) => failure.reason.split(": ")[0])).toContain(fixture.invalid.property);
      expect(result.failures?.every((failure) => failure.property === "")).toBe(true);
      expect(await world.requestCount()).toBe(before);
      expect((await ops.check({}, asPulumiInputs(inputs))).failures).toBeUndefined();
    });

    it("creates the object and reads back exactly what it recorded", async () => {
      const created = await ops.create(asPulumiInputs(inputs));
      id = created.id;
      outs = created.outs as State;
      for (const key of inputKeys(fixture.declaration)) {
        if (inputs[key] !== undefined) expect(outs[key], key).toEqual(inputs[key]);
      }
      const read = await ops.read(id, outs);
      expect(read.id).toBe(id);
      expect(read.props).toEqual(outs);
    });

    it("sees no change when the inputs are the same", async () => {
      expect(await ops.diff(id, outs, asPulumiInputs(inputs))).toMatchObject({ changes: false });
    });

    it("adopts the existing object through the import option, with no diff", async () => {
      const adopted = await ops.create({ ...asPulumiInputs(inputs), importId: id });
      expect(adopted.id).toBe(id);
      expect(await ops.diff(id, adopted.outs as State, inputs)).toMatchObject({ changes: false });
    });

    it("imports through read with the id alone, as a refresh of an imported resource does", async () => {
      const read = await ops.read(id, {});
      expect(read.id).toBe(id);
      expect(await ops.diff(id, read.props as State, inputs)).toMatchObject({ changes: false });
    });

    if (fixture.update) {
      it("updates in place and converges", async () => {
        const news = fixture.update!(inputs, world);
        expect(await ops.diff(id, outs, news)).toMatchObject({ changes: true, replaces: [] });
        const updated = await ops.update(id, outs, asPulumiInputs(news));
        const read = await ops.read(id, updated.outs as State);
        expect(read.props).toEqual(updated.outs);
        expect(await ops.diff(id, read.props as State, news)).toMatchObject({ changes: false });
        inputs = news;
        outs = updated.outs as State;
      });
    }

    if (fixture.replace) {
      it("asks for a replacement when an immutable input changes", async () => {
        const diff = await ops.diff(id, outs, fixture.replace!(inputs, world));
        expect(diff.changes).toBe(true);
        expect(diff.replaces?.length).toBeGreaterThan(0);
      });
    }

    if (fixture.drift) {
      it("sees an out-of-band change on read and repairs it with an update", async () => {
        const field = await fixture.drift!(world, outs);
        const read = await ops.read(id, outs);
        expect(read.props?.[field]).not.toEqual(outs[field]);
        expect(await ops.diff(id, read.props as State, inputs)).toMatchObject({ changes: true });
        const repaired = await ops.update(id, read.props as State, inputs);
        expect(await ops.diff(id, repaired.outs as State, inputs)).toMatchObject({ changes: false });
        outs = repaired.outs as State;
      });
    }

    if (fixture.setting) {
      it("restores the value it found on delete", async () => {
        await ops.delete(id, outs);
        await fixture.setting!.restored(world, outs);
      });
    } else if (fixture.forgotten) {
      it("forgets the object on delete, without a request: the forge keeps what it did", async () => {
        const before = await world.requestCount();
        await ops.delete(id, outs);
        expect(await world.requestCount()).toBe(before);
        await fixture.forgotten!.kept(world, outs);
      });
    } else {
      it("deletes the object; a second delete is a no-op", async () => {
        await ops.delete(id, outs);
        expect((await ops.read(id, outs)).id).toBe("");
        await ops.delete(id, outs);
      });

      it("reads an object deleted out of band as gone", async () => {
        const again = await ops.create(asPulumiInputs(inputs));
        if (fixture.removeOutOfBand) await fixture.removeOutOfBand(world, again.outs as State);
        else await world.api.request(...routeCall(fixture.declaration.delete!, again.outs as State));
        expect((await ops.read(again.id, again.outs as State)).id).toBe("");
      });
    }

    it("surfaces an API error with its status and the server's message", async () => {
      const rejected = await fixture.apiError.inputs(inputs, world);
      if (fixture.apiError.actAs) world.actAs(fixture.apiError.actAs);
      try {
        const error = await ops.create(asPulumiInputs(rejected)).then(
          () => undefined,
          (caught: unknown) => caught,
        );
        if (fixture.apiError.conflict) {
          // There before the create: refused without a request, naming the import id to adopt it.
          expect(error).toBeInstanceOf(ExistingObjectError);
          expect((error as Error).message).toMatch(/already exists on the forge, and this resource did not make it.*\{ import: "[^"]+" \}/);
          return;
        }
        expect(error).toBeInstanceOf(ForgeApiError);
        expect((error as ForgeApiError).status).toBe(fixture.apiError.status);
        expect((error as Error).message).toContain(String(fixture.apiError.status));
        expect((error as Error).message).toContain(fixture.apiError.message);
        expect((error as Error).message).not.toContain(world.user(fixture.apiError.actAs ?? "root").token);
      } finally {
        world.actAs("root");
      }
    });
  });
}

/** The arguments of a raw API call for a declaration's request, with path fields from a state. */
function routeCall(request: Request, state: State): [HttpMethod, string, Record<string, unknown>] {
  const { method, path, parameters } = parseRoute(routeOf(request));
  const params = Object.fromEntries(parameters.map((name) => [name, state[name]]));
  return [method, path, { ...params, ...optionsOf(request).body }];
}
