/**
 * Every resource type in one stack, with the real Pulumi CLI against the emulator: up, a no-op
 * preview and refresh, destroy. The stack is derived from the contract suite's fixture table
 * (test/contract/fixtures.ts): each row's `inputs` makes its prerequisites through the API of
 * this suite's emulator, and the generic program builds one resource per row. A new declaration
 * with a fixture row is in this stack without an edit here. The rows share one emulator here
 * (the contract suite resets it for each), so their prerequisites must not clash by name.
 *
 * The deeper behaviours (drift, deletion, replacement, secrets, import, errors) are shown once
 * per kind of resource in kinds.test.ts; the contract suite runs them for every declaration.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inputKeys, secretKeys } from "../../provider/engine/declaration";
import { declarationByName, declarations } from "../../provider/resources";
import { fixtures } from "../contract/fixtures";
import { leftInForge } from "./forge-api";
import { filesContaining, namesWith, startE2eWorld, type E2eWorld, type ListedResource, type StateResource, type TestStack } from "./harness";

const OP_TIMEOUT = 300_000;

let world: E2eWorld;
let stack: TestStack;
let listed: ListedResource[];
/** The state after up, for the checks after destroy. */
let created: StateResource[];

const allNames = () => listed.map((resource) => resource.name).sort();

describe("e2e: every resource type (from the contract fixtures) through the Pulumi CLI", () => {
  beforeAll(async () => {
    world = await startE2eWorld();
    listed = [];
    for (const fixture of fixtures) {
      const name = fixture.declaration.name;
      listed.push({ type: name, name, inputs: await fixture.inputs(world.fixtureWorld) });
    }
    stack = await world.stack("resources", "all-types");
    await stack.declare(listed);
  }, OP_TIMEOUT);

  afterAll(async () => {
    await world?.close();
  });

  it("up creates one resource per declaration, with the inputs given", async () => {
    expect(allNames()).toEqual(Object.values(declarations).map((declaration) => declaration.name).sort());

    const up = await stack.up();
    expect(namesWith(up, "create")).toEqual(allNames());

    created = await stack.resources();
    for (const resource of listed) {
      const state = created.find((r) => r.name === resource.name);
      for (const key of inputKeys(declarationByName(resource.type))) {
        if (resource.inputs[key] !== undefined) expect(state?.outputs[key], `${resource.name}.${key}`).toEqual(resource.inputs[key]);
      }
    }
    // All in the forge, the settings holding the value given: this is also what makes the
    // same check after destroy able to fail.
    const forgotten = fixtures.filter((fixture) => fixture.forgotten).map((fixture) => fixture.declaration.name);
    expect(await leftInForge(world.fixtureWorld, created)).toEqual(allNames().filter((name) => !forgotten.includes(name)));
  }, OP_TIMEOUT);

  it("keeps every secret of every type (secret outputs, write-only inputs) out of the state in plain text", async () => {
    // The values, from the decrypted state: every string inside a field the declaration keeps secret.
    const strings = (value: unknown): string[] =>
      typeof value === "string" ? [value] : value && typeof value === "object" ? Object.values(value).flatMap(strings) : [];
    const secrets = created.flatMap((resource) =>
      secretKeys(declarationByName(resource.type)).flatMap((key) => strings(resource.outputs[key]).filter((text) => text.length >= 12)),
    );
    expect(secrets.length, "the stack holds secrets to look for").toBeGreaterThan(0);
    const encrypted = await stack.exportedStateEncrypted();
    for (const secret of secrets) expect(encrypted.includes(secret), `pulumi stack export shows ${secret.slice(0, 12)}...`).toBe(false);
    expect(filesContaining(world.backendDir, secrets)).toEqual([]);
  }, OP_TIMEOUT);

  it("a second preview and a refresh show only `same`", async () => {
    const preview = await stack.preview();
    expect(Object.keys(preview.changes)).toEqual(["same"]);
    expect(namesWith(preview, "same")).toEqual(allNames());

    const refresh = await stack.refresh();
    expect(Object.keys(refresh.changes)).toEqual(["same"]);
    expect(namesWith(refresh, "refresh", "same")).toEqual(allNames());
  }, OP_TIMEOUT);

  it("destroy leaves nothing in the forge; settings get back the value found", async () => {
    const destroy = await stack.destroy();
    expect(namesWith(destroy, "delete")).toEqual(allNames());
    expect(await leftInForge(world.fixtureWorld, created)).toEqual([]);
    expect(await stack.resourceNames()).toEqual([]);
  }, OP_TIMEOUT);
});
