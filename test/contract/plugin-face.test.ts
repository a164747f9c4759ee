/**
 * The contract table through the second face: every declaration through the provider interface a
 * plugin binary serves (provider/plugin/provider.ts), addressed by URN and type token, over the
 * same operations, against the emulator over HTTP. No engine: the interface is called in process.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as provider from "@pulumi/pulumi/provider";
import type { State } from "../../provider/engine/declaration";
import { conceal, reveal, typeNameOf } from "../../provider/faces/plugin";
import { pluginToken } from "../../provider/type-tokens";
import { pluginProvider } from "../../provider/runtime";
import { fixtures } from "./fixtures";
import { startWorld, type World } from "./world";

let world: World;
let plugin: provider.Provider;
beforeAll(async () => {
  world = await startWorld();
  // The composition root's plugin, as pulumi-resource-forge serves it.
  plugin = pluginProvider({ version: "0.1.0", schema: readFileSync(join(__dirname, "../../provider/plugin/schema.json"), "utf8") });
});
afterAll(async () => world?.close());

const urnOf = (name: string) => `urn:pulumi:test::forge::${pluginToken(name)}::${name.toLowerCase()}`;

it("reads the type from the URN's type token, a parent's types left out", () => {
  expect(typeNameOf("urn:pulumi:dev::p::forge:index:GroupLabel::bug")).toBe("GroupLabel");
  expect(typeNameOf("urn:pulumi:dev::p::my:index:Component$forge:index:Snippet::s")).toBe("Snippet");
  expect(() => typeNameOf("urn:pulumi:dev::p::aws:s3:Bucket::b")).toThrow("aws:s3:Bucket is not a type of the forge package");
});

for (const fixture of fixtures) {
  const name = fixture.declaration.name;
  describe(name, () => {
    it("check, create, read, no diff, import by id alone, update, delete: through the plugin's interface", async () => {
      await world.reset();
      world.actAs("root");
      const urn = urnOf(name);
      const inputs = await fixture.inputs(world);
      const checked = await plugin.check!(urn, {}, inputs);
      expect(checked.failures).toBeUndefined();
      const created = await plugin.create!(urn, checked.inputs);
      const id = created.id;
      const outs = created.outs as State;
      expect((await plugin.read!(id, urn, outs)).props).toEqual(outs);
      expect(await plugin.diff!(id, urn, outs, checked.inputs)).toMatchObject({ changes: false });
      // pulumi import: the id alone, then the engine's check and diff against the program's inputs.
      const imported = await plugin.read!(id, urn, undefined);
      expect(imported.id).toBe(id);
      const recheck = await plugin.check!(urn, imported.inputs ?? {}, inputs);
      expect(await plugin.diff!(id, urn, imported.props ?? {}, recheck.inputs)).toMatchObject({ changes: false });
      if (fixture.update) {
        const news = fixture.update(inputs, world);
        const diff = await plugin.diff!(id, urn, outs, news);
        expect(diff.changes).toBe(true);
        if ((diff.replaces ?? []).length === 0) await plugin.update!(id, urn, outs, news);
      }
      const current = (await plugin.read!(id, urn, outs)).props as State;
      await plugin.delete!(id, urn, current);
      if (!fixture.setting && !fixture.forgotten) expect((await plugin.read!(id, urn, current)).id).toBe("");
    });
  });
}

it("serves the lookups as invokes, and refuses a function it does not have", async () => {
  world.actAs("root");
  const { outputs } = await plugin.invoke!(pluginToken("getGroup"), { group: "acme" });
  expect(outputs).toMatchObject({ result: { fullPath: "acme" } });
  // A lookup that answers secret fields answers a secret, as its .output() does.
  const keys = await plugin.invoke!(pluginToken("listErrorTrackingClientKeys"), { project: "acme/web" });
  expect(reveal(keys.outputs as State).secret).toEqual(new Set(["result"]));
  await expect(plugin.invoke!("forge:index:getNothing", {})).rejects.toThrow("no function forge:index:getNothing");
});

it("serves the actions as invokes: arguments checked before any request, the forge's refusal named", async () => {
  await world.reset();
  world.actAs("olivia");
  // A token from secret config arrives marked secret on the wire.
  const marked = conceal({ group: "acme", token: "forge-seed-acme-bot" }, ["token"])!;
  expect((await plugin.invoke!(pluginToken("revokeGroupToken"), marked)).outputs).toMatchObject({ result: { revoked: true } });
  const { outputs } = await plugin.invoke!(pluginToken("revokeGroupToken"), { group: "acme", token: "forge-seed-web-deployer" });
  expect(outputs).toMatchObject({ result: { name: "web-deployer", revoked: true } });
  expect((await plugin.invoke!(pluginToken("syncGroupLdap"), { group: "acme" })).outputs).toEqual({ result: null });
  await expect(plugin.invoke!(pluginToken("revokeGroupToken"), { group: "acme", token: "" })).rejects.toThrow("revokeGroupToken: invalid arguments: token: is empty");
  world.actAs("max");
  await expect(plugin.invoke!(pluginToken("syncGroupLdap"), { group: "acme" })).rejects.toThrow(/403 Forbidden \(syncGroupLdap needs the Premium tier/);
});

it("pulumi import of a feature whose actors and force the forge shows its own way changes nothing", async () => {
  await world.reset();
  world.actAs("root");
  const urn = urnOf("Feature");
  const inputs = { name: "imported_gate", percentageOfActors: 25, users: ["dev"], projects: ["acme/web"], groups: ["acme/platform"], force: true };
  const created = await plugin.create!(urn, (await plugin.check!(urn, {}, inputs)).inputs);
  const imported = await plugin.read!(created.id, urn, undefined);
  expect(imported.inputs).toMatchObject({ users: ["dev"], projects: ["acme/web"], groups: ["acme/platform"], force: true });
  const recheck = await plugin.check!(urn, imported.inputs ?? {}, inputs);
  expect(await plugin.diff!(created.id, urn, imported.props ?? {}, recheck.inputs)).toMatchObject({ changes: false });
});
