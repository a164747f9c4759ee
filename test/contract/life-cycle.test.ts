/**
 * The life cycle of every resource, over both faces: one table row per declaration
 * (fixtures.ts), the same steps for each, run through the dynamic provider (what a TypeScript
 * program's classes call) and through the plugin's provider interface (what
 * `pulumi-resource-forge` serves to programs in any language), in this process, against the
 * emulator over HTTP on loopback. The steps call the face as the engine does: check first, then
 * create, diff or update with what check sent on. support/faces.ts adapts each face.
 *
 * For every row and face: check refuses a bad input before any request; create records the
 * inputs, read gives back the state, a second diff shows nothing; import by id alone (and, on the
 * dynamic face, the `import` option) shows nothing; an update converges; an immutable change
 * replaces; a change and a deletion made behind the provider's back are read and repaired (by
 * update, by create); values the program never set are not drift; delete leaves nothing (a
 * setting gets back what it found); dropping an optional input resets it on the forge (or
 * replaces the object when the API cannot clear it) and the next diff shows nothing; secrets stay
 * marked in every state the face returns and out of every other field; an API error carries its
 * status and message and never the token.
 *
 * The real engine adds what only it shows (test/e2e: one resource per kind, the state file,
 * preview and refresh output, replacement order, partial failures); docs/architecture.md
 * (Testing) says where each behaviour is tested.
 */
import { isDeepStrictEqual } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HttpMethod } from "../../api";
import { ForgeApiError, parseRoute } from "../../provider/client";
import { sameValue } from "../../provider/engine/compare";
import type { AnyDeclaration, Request, State } from "../../provider/engine/declaration";
import {
  inputKeys,
  optionsOf,
  replacedOnRemoval,
  replacementKeys,
  resetValue,
  routeOf,
  declaredSecrets,
} from "../../provider/engine/declaration";

import { getPath } from "../../provider/engine/paths";
import { ExistingObjectError } from "../../provider/engine/recovery";
import { declarations } from "../../provider/resources";
import { dynamicFaceOf } from "../../provider/runtime";
import { fixtures, type ContractFixture } from "./fixtures";
import { checked, FACES, type Face, type Written } from "./support/faces";
import { startWorld, type World } from "./world";
import { IMPORTED_KEY } from "../../provider/engine/bookkeeping";

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => world?.close());

it("has a fixture for every declaration", () => {
  expect(fixtures.map((fixture) => fixture.declaration.name).sort()).toEqual(
    Object.values(declarations)
      .map((declaration) => declaration.name)
      .sort(),
  );
});

it("every optional input of every declaration says what dropping it does, and has a fixture value", () => {
  for (const fixture of fixtures) {
    const declaration = fixture.declaration;
    for (const key of optionalInputs(declaration)) {
      const decided = replacedWhenDropped(declaration, key) || key in (declaration.resets ?? {});
      expect(decided, `${declaration.name}.${key}: declare a reset or replaceOnRemoval`).toBe(true);
    }
    if (optionalInputs(declaration).length > 0)
      expect(fixture.optional, `${declaration.name}: fixture needs optional values`).toBeDefined();
    for (const key of Object.keys(fixture.removalElsewhere ?? {}))
      expect(optionalInputs(declaration), `${declaration.name}.${key}`).toContain(key);
  }
});

for (const face of FACES) {
  describe(face.name, () => {
    for (const fixture of fixtures) lifeCycle(face, fixture);
  });
}

function lifeCycle(face: Face, fixture: ContractFixture): void {
  const declaration = fixture.declaration;
  const type = declaration.name;

  describe(type, () => {
    /** The program's inputs, what check sent on for them (the state's inputs), and the state. */
    let inputs: State;
    let sent: State;
    let state: Written;

    beforeAll(async () => {
      await world.reset();
      world.actAs("root");
      inputs = await fixture.inputs(world);
    });

    it("check refuses invalid inputs naming the field, before any request; the valid ones pass", async () => {
      const before = await world.requestCount();
      const result = await face.check(type, {}, fixture.invalid.inputs(inputs));
      // On the resource, the field leading the reason: the engine prints no input value with it.
      expect(result.failures?.map((failure) => failure.reason.split(": ")[0])).toContain(fixture.invalid.property);
      expect(result.failures?.every((failure) => failure.property === "")).toBe(true);
      expect(await world.requestCount()).toBe(before);
      expect((await face.check(type, {}, inputs)).failures).toBeUndefined();
    });

    it("creates the object with the inputs given; read gives back exactly that state, and a second diff shows no change", async () => {
      sent = await checked(face, type, {}, inputs);
      state = await face.create(type, sent);
      for (const key of inputKeys(declaration)) {
        if (inputs[key] !== undefined) expect(state.outs[key], key).toEqual(inputs[key]);
      }
      expectSecretsKept(declaration, state, "create");
      const read = await face.read(type, state.id, state.outs);
      expect(read.id).toBe(state.id);
      expect(read.outs).toEqual(state.outs);
      expectSecretsKept(declaration, read, "read");
      expect(await face.diff(type, state.id, read.outs, sent)).toMatchObject({ changes: false });
    });

    if (declaration.rotation) {
      it("refuses an import, by id alone or by the class's `import` option, saying why and writing nothing", async () => {
        const before = await world.writeCount();
        const refusals = [face.read(type, state.id, undefined), ...(face.adopt ? [face.adopt(type, inputs, state.id)] : [])];
        for (const refusal of refusals)
          await expect(refusal).rejects.toThrow(/cannot be imported: the forge shows a \w+'s value only in the answer to its create/);
        expect(await world.writeCount()).toBe(before);
      });
    } else {
      it("imports by id alone (a read with no state, as `pulumi import` and the `import` option of the plugin do): the program's inputs show no change; a write-only input, never compared, is written only by the next run, which shows it", async () => {
        const imported = await face.read(type, state.id, undefined);
        expect(imported.id).toBe(state.id);
        expect(imported.inputs[IMPORTED_KEY], "marked as an import no program has matched yet").toBeDefined();
        expectSecretsKept(declaration, imported, "import");
        const resent = await checked(face, type, imported.inputs, inputs);
        expect(resent[IMPORTED_KEY], "matched: the mark is gone").toBeUndefined();
        expect(await face.diff(type, state.id, imported.outs, resent)).toMatchObject({ changes: false });
        // The next run: the engine kept what it read (an import it found no change in), and the
        // program is the same; then a run after it, whose state's inputs are what check sent on.
        const next = await checked(face, type, imported.inputs, inputs);
        expect(next[IMPORTED_KEY]).toBeUndefined();
        const pending = pendingWriteOnly(declaration, inputs);
        expect(
          await face.diff(type, state.id, imported.outs, next),
          "a change exactly when a write-only input waits to be written",
        ).toMatchObject({ changes: pending });
        expect(await face.diff(type, state.id, imported.outs, await checked(face, type, next, inputs))).toMatchObject({ changes: pending });
      });

      it("refuses an import whose inputs differ from the forge, naming each field with secret values masked on both sides; nothing is sent, and the object stays the forge's", async ({
        skip,
      }) => {
        const mismatch = importMismatchOf(fixture, inputs);
        if (!mismatch) skip(`${type} has no program that differs from its object`);
        const program = mismatch!.program;
        const secrets = secretValues(declaration, [program, inputs, state.outs]);
        const before = await world.writeCount();
        const imported = await face.read(type, state.id, undefined);
        const result = await face.check(type, imported.inputs, program);
        const reasons = (result.failures ?? []).map((failure) => failure.reason);
        const named = reasons.filter((reason) => /^[\w.]+: the program has /.test(reason));
        expect(named.map((reason) => reason.split(":")[0]).sort(), reasons.join("\n")).toEqual([...mismatch!.fields].sort());
        expect(reasons.filter((reason) => !named.includes(reason))).toEqual([
          expect.stringMatching(
            /^cannot import ".+": the program differs from what the forge holds, and an import never writes: nothing was sent/,
          ),
        ]);
        expect(
          secrets.filter((secret) => reasons.join("\n").includes(secret)),
          "secret values in the refusal",
        ).toEqual([]);
        if (face.adopt) {
          // The class's `import` option: the create that imports is refused the same way.
          const refusal = await face.adopt(type, program, state.id).then(
            () => "imported",
            (error: unknown) => (error instanceof Error ? error.message : String(error)),
          );
          for (const field of mismatch!.fields) expect(refusal).toContain(`${field}: the program has`);
          expect(refusal).toMatch(/An import never writes, and nothing was sent/);
          expect(
            secrets.filter((secret) => refusal.includes(secret)),
            "secret values in the refusal",
          ).toEqual([]);
        } else {
          // A refused import stays in the state marked (the engine keeps what it read): a refresh
          // keeps the mark, and deleting it only drops it from the stack.
          const mark = { [IMPORTED_KEY]: imported.inputs[IMPORTED_KEY] };
          const refreshed = await face.read(type, state.id, { ...imported.outs, ...mark });
          expect(refreshed.inputs[IMPORTED_KEY]).toEqual(imported.inputs[IMPORTED_KEY]);
          expect((await face.check(type, refreshed.inputs, program)).failures?.length).toBe(mismatch!.fields.length + 1);
          await face.delete(type, state.id, { ...imported.outs, ...mark });
          expect((await face.read(type, state.id, state.outs)).id, "still on the forge").toBe(state.id);
        }
        expect(await world.writeCount(), "nothing was sent").toBe(before);
      });

      if (face.adopt) {
        it("adopts the existing object through the class's `import` option, with no diff but the write-only inputs it could not compare", async () => {
          const before = await world.writeCount();
          const adopted = await face.adopt!(type, inputs, state.id);
          expect(adopted.id).toBe(state.id);
          expect(await world.writeCount(), "adopting writes nothing").toBe(before);
          expectSecretsKept(declaration, adopted, "adopt");
          expect(await face.diff(type, state.id, adopted.outs, sent)).toMatchObject({ changes: pendingWriteOnly(declaration, inputs) });
        });
      }
    }

    if (fixture.update) {
      it("updates in place and converges: the next read and diff show no change", async () => {
        const news = fixture.update!(inputs, world);
        const newSent = await checked(face, type, sent, news);
        expect(await face.diff(type, state.id, state.outs, newSent)).toMatchObject({ changes: true, replaces: [] });
        const updated = await face.update(type, state.id, state.outs, newSent);
        expectSecretsKept(declaration, updated, "update");
        const read = await face.read(type, state.id, updated.outs);
        expect(read.outs).toEqual(updated.outs);
        expect(await face.diff(type, state.id, read.outs, newSent)).toMatchObject({ changes: false });
        [inputs, sent, state] = [news, newSent, updated];
      });
    }

    if (fixture.replace) {
      it("asks for a replacement when an immutable input changes", async () => {
        const diff = await face.diff(type, state.id, state.outs, await checked(face, type, sent, fixture.replace!(inputs, world)));
        expect(diff.changes).toBe(true);
        expect(diff.replaces.length).toBeGreaterThan(0);
      });
    }

    if (fixture.drift) {
      it("sees an out-of-band change on read and repairs it with an update", async () => {
        const field = await fixture.drift!(world, state.outs);
        const read = await face.read(type, state.id, state.outs);
        expect(read.outs[field]).not.toEqual(state.outs[field]);
        expect(await face.diff(type, state.id, read.outs, sent)).toMatchObject({ changes: true });
        const repaired = await face.update(type, state.id, read.outs, sent);
        expect(await face.diff(type, state.id, repaired.outs, sent)).toMatchObject({ changes: false });
        // Repaired on the forge, not only in the state.
        const again = await face.read(type, state.id, repaired.outs);
        expect(again.outs[field]).toEqual(state.outs[field]);
        expect(await face.diff(type, state.id, again.outs, sent)).toMatchObject({ changes: false });
        state = repaired;
      });
    }

    if (unmanagedCandidates(fixture).length > 0) {
      it("takes values on the forge for inputs the program never set as no drift", async ({ skip }) => {
        const optional = fixture.optional!(inputs, world);
        const unset = unmanagedCandidates(fixture).filter((key) => inputs[key] === undefined && optional[key] !== undefined);
        if (unset.length === 0) skip(`the program sets every optional input of ${type} an update can write`);
        // Someone else sets them (another program, the forge's UI): the forge then holds values
        // for inputs this program does not manage.
        const values = Object.fromEntries(unset.map((key) => [key, optional[key]]));
        await dynamicFaceOf(type).update(state.id, state.outs, { ...inputs, ...values });
        const read = await face.read(type, state.id, state.outs);
        expect(
          unset.filter((key) => !isDeepStrictEqual(read.outs[key], state.outs[key])),
          "the forge holds other values for inputs the program never set",
        ).not.toEqual([]);
        expect(await face.diff(type, state.id, read.outs, sent)).toMatchObject({ changes: false });
        state = read;
      });
    }

    if (fixture.setting) {
      it("restores the value it found on delete", async () => {
        await face.delete(type, state.id, state.outs);
        await fixture.setting!.restored(world, state.outs);
      });
    } else if (fixture.forgotten) {
      it("forgets the object on delete, without a request: the forge keeps what it did", async () => {
        const before = await world.requestCount();
        await face.delete(type, state.id, state.outs);
        expect(await world.requestCount()).toBe(before);
        await fixture.forgotten!.kept(world, state.outs);
      });
    } else {
      it("deletes the object, leaving nothing: a read finds it gone, a second delete is a no-op", async () => {
        await face.delete(type, state.id, state.outs);
        expect((await face.read(type, state.id, state.outs)).id).toBe("");
        await face.delete(type, state.id, state.outs);
      });

      it("reads an object deleted out of band as gone, and create makes it again", async () => {
        const again = await face.create(type, await checked(face, type, {}, inputs));
        if (fixture.removeOutOfBand) await fixture.removeOutOfBand(world, again.outs);
        else await world.api.request(...routeCall(declaration.delete!, again.outs));
        expect((await face.read(type, again.id, again.outs)).id).toBe("");
        const remade = await face.create(type, await checked(face, type, {}, inputs));
        const read = await face.read(type, remade.id, remade.outs);
        expect(read.id).toBe(remade.id);
        expect(await face.diff(type, remade.id, read.outs, sent)).toMatchObject({ changes: false });
        await face.delete(type, remade.id, remade.outs);
      });
    }

    it("surfaces an API error with its status and the server's message, never the token", async () => {
      const rejected = await fixture.apiError.inputs(inputs, world);
      if (fixture.apiError.actAs) world.actAs(fixture.apiError.actAs);
      try {
        const error = await checked(face, type, {}, rejected)
          .then((news) => face.create(type, news))
          .then(
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

  if (!fixture.optional) return;
  describe(`${type}: dropping an optional input`, () => {
    let full: State;

    beforeAll(async () => {
      await world.reset();
      world.actAs("root");
      const inputs = await fixture.inputs(world);
      full = { ...inputs, ...fixture.optional!(inputs, world) };
    });

    // One test per row: each input (or group of inputs dropped together) is dropped from the
    // full set on an object of its own, and every outcome is reported.
    it("resets each one on the forge (or replaces the object, where the API cannot clear it), and the next diff shows nothing", async () => {
      const outcomes: string[] = [];
      const problems: string[] = [];
      const together = fixture.removalTogether ?? [];
      const units = [
        ...optionalInputs(declaration)
          .filter((key) => !fixture.removalElsewhere?.[key])
          .map((key) => [key]),
        ...together,
      ];
      for (const unit of units) {
        const label = unit.join(" with ");
        const rest = Object.fromEntries(Object.entries(full).filter(([key]) => !unit.includes(key)));
        try {
          const fullSent = await checked(face, type, {}, full);
          const restChecked = await face.check(type, fullSent, rest);
          if (restChecked.failures?.length) {
            // Only an input of a group check refuses to see go alone; the group's own drop covers it.
            const grouped = unit.length === 1 && together.some((group) => group.length > 1 && group.includes(unit[0]!));
            if (!grouped) throw new Error(`check failed: ${restChecked.failures.map((failure) => failure.reason).join("; ")}`);
            outcomes.push(`${label}: refused alone by check`);
            continue;
          }
          const restSent = restChecked.sent;
          if (unit.some((key) => replacedWhenDropped(declaration, key))) {
            const olds = { ...full, appliedInputs: inputKeys(declaration).filter((input) => full[input] !== undefined) };
            const diff = await face.diff(type, "id", olds, restSent);
            const replacing = unit.filter((key) => replacedWhenDropped(declaration, key));
            expect(diff, "dropping it replaces").toMatchObject({ changes: true, replaces: expect.arrayContaining(replacing) });
            outcomes.push(`${label}: replaces`);
            continue;
          }
          const created = await face.create(type, fullSent);
          expect(await face.diff(type, created.id, created.outs, restSent), "dropping an input is a change").toMatchObject({
            changes: true,
            replaces: [],
          });
          const updated = await face.update(type, created.id, created.outs, restSent);
          const read = await face.read(type, created.id, updated.outs);
          for (const key of unit) {
            // A reset function sees the state as update does: the last outputs under the new inputs.
            const expected = resetValue(declaration, key, { ...created.outs, ...rest });
            expect(
              sameValue(declaration, key, expected, read.outs[key]),
              `${key} on the forge: ${JSON.stringify(read.outs[key])}, expected ${JSON.stringify(expected)}`,
            ).toBe(true);
          }
          expect(await face.diff(type, created.id, read.outs, restSent), "the next diff").toMatchObject({ changes: false });
          await face.delete(type, created.id, read.outs);
          outcomes.push(`${label}: reset`);
        } catch (error) {
          problems.push(`${label}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      expect(problems).toEqual([]);
      // Every input was dropped on its own or in its group.
      const covered = new Set(
        units
          .filter((unit) => outcomes.includes(`${unit.join(" with ")}: reset`) || outcomes.includes(`${unit.join(" with ")}: replaces`))
          .flat(),
      );
      expect(optionalInputs(declaration).filter((key) => !fixture.removalElsewhere?.[key] && !covered.has(key))).toEqual([]);
    });
  });
}

/** What an import of the row must refuse: its `importMismatch`, else its update (or replacement)
 *  with the fields it changes that the forge shows (write-only ones cannot be compared). */
function importMismatchOf(fixture: ContractFixture, inputs: State): { program: State; fields: string[] } | undefined {
  if (fixture.importMismatch) return { program: fixture.importMismatch.inputs(inputs, world), fields: fixture.importMismatch.fields };
  const change = fixture.update ?? fixture.replace;
  if (!change) return undefined;
  const program = change(inputs, world);
  const writeOnly = fixture.declaration.writeOnly ?? [];
  return {
    program,
    fields: inputKeys(fixture.declaration).filter((key) => !writeOnly.includes(key) && !isDeepStrictEqual(inputs[key], program[key])),
  };
}

/** True when the program sets a write-only input of a kind updated in place: an import cannot
 *  prove it, so the state holds none and the next run writes it (provider/engine/imports.ts). */
function pendingWriteOnly(declaration: AnyDeclaration, inputs: State): boolean {
  const inPlace = declaration.update !== undefined || declaration.setting !== undefined;
  return inPlace && (declaration.writeOnly ?? []).some((path) => getPath(inputs, path) !== undefined);
}

/** The values of a kind's secret fields in some states (strings of 8 characters or more): none may appear in a message. */
function secretValues(declaration: AnyDeclaration, states: State[]): string[] {
  const keys = declaredSecrets(declaration);
  const strings = (value: unknown): string[] =>
    typeof value === "string" ? [value] : value && typeof value === "object" ? Object.values(value).flatMap(strings) : [];
  return [...new Set(states.flatMap((state) => keys.flatMap((key) => strings(state[key]))))].filter((text) => text.length >= 8);
}

/**
 * Secrets stay secret in a state the face returned: every declared secret with a value is
 * marked, and no secret value (a string of 8 characters or more) appears in a field that is not.
 */
function expectSecretsKept(declaration: AnyDeclaration, written: Written, step: string): void {
  const present = declaredSecrets(declaration).filter((key) => written.outs[key] !== undefined);
  expect(
    present.filter((key) => !written.secret.has(key)),
    `${step}: secret fields left unmarked`,
  ).toEqual([]);
  const strings = (value: unknown): string[] =>
    typeof value === "string" ? [value] : value && typeof value === "object" ? Object.values(value).flatMap(strings) : [];
  const secrets = [...written.secret].flatMap((key) => strings(written.outs[key])).filter((text) => text.length >= 8);
  const leaks = Object.keys(written.outs)
    .filter((key) => !written.secret.has(key))
    .flatMap((key) =>
      secrets
        .filter((secret) => JSON.stringify(written.outs[key]).includes(secret))
        .map((secret) => `${key} holds ${secret.slice(0, 8)}...`),
    );
  expect(leaks, `${step}: secret values in fields not marked secret`).toEqual([]);
}

function optionalInputs(declaration: AnyDeclaration): string[] {
  return inputKeys(declaration).filter((key) => declaration.inputs.shape[key].safeParse(undefined).success);
}

function replacedWhenDropped(declaration: AnyDeclaration, key: string): boolean {
  return replacementKeys(declaration).includes(key) || replacedOnRemoval(declaration).includes(key);
}

/**
 * Optional inputs an update can write and a read shows, with a fixture value: those whose value
 * on the forge, when the program does not set them, must not be drift. Left out: replacing
 * inputs, write-only ones (the forge never shows them), those whose removal is tested elsewhere.
 */
function unmanagedCandidates(fixture: ContractFixture): string[] {
  const declaration = fixture.declaration;
  // A rotating resource's inputs are its credentials', which the forge never changes afterwards.
  if (!fixture.optional || declaration.rotation) return [];
  const writeOnly = (declaration.writeOnly ?? []).map((path) => path.split(".")[0]);
  return optionalInputs(declaration).filter(
    (key) => !fixture.removalElsewhere?.[key] && !replacementKeys(declaration).includes(key) && !writeOnly.includes(key),
  );
}

/** The arguments of a raw API call for a declaration's request, with path fields from a state. */
function routeCall(request: Request, state: State): [HttpMethod, string, Record<string, unknown>] {
  const { method, path, parameters } = parseRoute(routeOf(request));
  const params = Object.fromEntries(parameters.map((name) => [name, state[name]]));
  return [method, path, { ...params, ...optionsOf(request).body }];
}
