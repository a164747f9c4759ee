/**
 * Every tool that reads a stack's state, on every kind of the registry, on both faces, against
 * two forges over real HTTP: the unmanaged search (forge-drift --unmanaged), the adoption that
 * leaves out what a fleet holds (forge-adopt --stacks-file), the fleet's drift from exports, one
 * stack's secret check and rotation check after its refresh (forge-drift), and forge-recover's
 * reading of pending operations. Each asks the one holdings model (provider/holdings) what a
 * stack holds, on which forge. The rows come from the registry (fixtures.ts has one per
 * declaration, life-cycle.test.ts checks it), so a new kind cannot skip a tool.
 *
 * The stacks, as `pulumi stack export` writes them (the engine's own create made every object):
 * - `managed`: every kind, made on forge A through an explicit provider that records A, while the
 *   stack's default provider records forge B (its config) and this process's FORGE_BASE_URL names
 *   B too: a stack on two forges, judged by each resource's own provider;
 * - `reader`: the same objects read with `get` (`external`): it holds nothing.
 * The real CLI over one kind of each shape is test/cli/holdings.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { afterRefresh, type DriftedResource } from "../../cli/drift";
import { onForge, type StackState } from "../../cli/fleet-state";
import { pendingChanges } from "../../cli/recover";
import { SharedReads, stateDrift } from "../../cli/state-drift";
import { adoptionOf } from "../../cli/unmanaged";
import { takeInventory, type FleetMember } from "../../provider/adopt/inventory";
import { closeClients } from "../../provider/client";
import type { State } from "../../provider/engine/declaration";
import { heldObjects, holdingsOf, type ExportedDeployment, type ExportedResource } from "../../provider/holdings/holdings";
import { adoptEntries, declarations, type DeclarationKey } from "../../provider/resources";
import { SECRET_SIG, SIG_KEY } from "../../provider/secret-marks";
import { typeTokenOf } from "../../provider/type-tokens";
import { fixtures, type ContractFixture } from "./fixtures";
import { checked, FACES, type Face } from "./support/faces";
import { startWorld, type World } from "./world";

// One world for the file, reset by each face's rows only: the objects live across their tests.
let forgeA: World;
const world = () => forgeA;
let forgeB: RunningEmulator;
beforeAll(async () => {
  [forgeA, forgeB] = await Promise.all([startWorld(), startEmulator({ port: 0 })]);
});
afterAll(async () => {
  await closeClients();
  await Promise.all([forgeA?.close(), forgeB?.close()]);
});

/** One object the engine made on forge A, and what its state holds. */
interface Made {
  fixture: ContractFixture;
  kind: string;
  id: string;
  sent: State;
  outs: State;
  secret: Set<string>;
}

/** The registry's kinds, by name; the rows must cover them all. */
const KINDS = Object.values(declarations)
  .map((declaration) => declaration.name)
  .sort();

/** Whether forge-adopt lists a kind (an adopt entry that finds), so the unmanaged search can see its objects. */
const listed = (kind: string) => {
  const key = Object.keys(declarations).find((name) => declarations[name as DeclarationKey].name === kind) as DeclarationKey;
  const entry = adoptEntries[key];
  return entry !== undefined && "find" in entry;
};

/** Makes one object of every kind on forge A with the face's own check and create. */
async function makeAll(face: Face): Promise<Made[]> {
  const made: Made[] = [];
  for (const fixture of fixtures) {
    const kind = fixture.declaration.name;
    const inputs = await fixture.inputs(world());
    const sent = await checked(face, kind, {}, inputs);
    const written = await face.create(kind, sent);
    made.push({ fixture, kind, id: written.id, sent: face.plain(sent), outs: written.outs, secret: written.secret });
  }
  return made;
}

/** A secret as an export writes it: its value with `--show-secrets`, ciphertext without. */
const secretOf = (value: unknown, shown: boolean) =>
  shown ? { [SIG_KEY]: SECRET_SIG, plaintext: JSON.stringify(value) } : { [SIG_KEY]: SECRET_SIG, ciphertext: "v1:opaque" };

/** A property bag as the state keeps it: secret fields in their envelope, the dynamic face's provider beside them. */
function bag(values: State, secret: ReadonlySet<string>, face: Face, shown: boolean): State {
  const result: State = Object.fromEntries(
    Object.entries(values).map(([key, value]) => [key, secret.has(key) ? secretOf(value, shown) : value]),
  );
  if (face.name === "dynamic") result["__provider"] = "exports.handler = __f0;";
  return result;
}

/** The two stacks of the module's comment, as exported. */
function exported(face: Face, made: readonly Made[], shown: boolean): { managed: ExportedDeployment; reader: ExportedDeployment } {
  const stack = (name: string) => `urn:pulumi:${name}::matrix::pulumi:pulumi:Stack::matrix-${name}`;
  const token = world().user("root").token;
  const provider = (name: string, url: string): ExportedResource => {
    const type = face.name === "plugin" ? "pulumi:providers:forge" : "pulumi:providers:pulumi-nodejs";
    const config =
      face.name === "plugin"
        ? { baseUrl: url, token: secretOf(token, shown) }
        : { "forge:baseUrl": url, "forge:token": secretOf(token, shown) };
    return { urn: `urn:pulumi:s::matrix::${type}::${name}`, type, custom: true, id: `${name}-id`, inputs: config, outputs: config };
  };
  // The dynamic face has one provider per stack: its config named A at the last up; the plugin
  // face names A in an explicit provider while the stack's default provider names B.
  const onA = provider(face.name === "plugin" ? "forgeA" : "default", world().emulator.url);
  const defaults = face.name === "plugin" ? [provider("default", forgeB.url)] : [];
  const resources = (name: string, external: boolean): ExportedResource[] => [
    { urn: stack(name), type: "pulumi:pulumi:Stack", custom: false },
    onA,
    ...defaults,
    ...made.map((object, index) => ({
      urn: `urn:pulumi:${name}::matrix::${typeTokenOf(face.name, object.kind)}::r${index}`,
      type: typeTokenOf(face.name, object.kind),
      custom: true,
      id: object.id,
      provider: `${onA.urn}::${onA.id}`,
      ...(external ? { external: true } : { inputs: bag(object.sent, object.secret, face, shown) }),
      outputs: bag(object.outs, object.secret, face, shown),
    })),
  ];
  return { managed: { resources: resources("managed", false) }, reader: { resources: resources("reader", true) } };
}

/** The fleet member a stack's holdings make on a forge, and the state the reports read. */
async function member(label: string, deployment: ExportedDeployment, forge: string): Promise<FleetMember & { state: StackState }> {
  const sorted = await onForge(holdingsOf(deployment), forge);
  const elsewhere = { count: [...sorted.elsewhere.values()].reduce((sum, count) => sum + count, 0), forges: [...sorted.elsewhere.keys()] };
  const state: StackState = {
    stack: label,
    workDir: "/srv",
    label,
    status: "read",
    resources: sorted.held,
    possibly: sorted.possibly,
    elsewhere,
    durationMs: 0,
  };
  return { label, status: "read", resources: sorted.held, possibly: sorted.possibly, state };
}

const SCOPE = { groups: ["acme"], projects: [], instance: true, snippets: true };

it("has a row for every kind of the registry", () => {
  expect(fixtures.map((fixture) => fixture.declaration.name).sort()).toEqual(KINDS);
});

for (const face of FACES) {
  describe(face.name, () => {
    let made: Made[];
    let stacks: { managed: ExportedDeployment; reader: ExportedDeployment };
    let shown: { managed: ExportedDeployment; reader: ExportedDeployment };
    beforeAll(async () => {
      await world().reset();
      world().actAs("root");
      made = await makeAll(face);
      stacks = exported(face, made, false);
      shown = exported(face, made, true);
      // The stack's config and this process name forge B: no tool may read A's objects through them.
      process.env["FORGE_BASE_URL"] = forgeB.url;
    });
    afterAll(() => world().actAs("root"));

    it("the model: each resource holds its object (a rotating one its two credentials), on forge A from its own provider; a `get` holds nothing", () => {
      const holdings = holdingsOf(stacks.managed);
      expect(holdings.resources.map((holding) => holding.kind).sort()).toEqual(KINDS);
      for (const holding of holdings.resources) {
        expect.soft(holding.forge, holding.kind).toMatchObject({ url: world().emulator.url });
        expect.soft(holding.role, holding.kind).toBe("manages");
        const declaration = Object.values(declarations).find((candidate) => candidate.name === holding.kind)!;
        if (declaration.rotation)
          expect
            .soft(
              holding.objects.map((object) => [object.kind, object.as]),
              holding.kind,
            )
            .toEqual([[declaration.rotation.of.name, "current"]]);
        else expect.soft(holding.objects, holding.kind).toEqual([{ kind: holding.kind, importId: holding.id, as: "itself" }]);
      }
      expect(holdingsOf(stacks.reader).resources.every((holding) => holding.role === "reads" && holding.objects.length === 0)).toBe(true);
    });

    it("unmanaged, on forge A: nothing the managed stack holds is reported, for any kind; with only the `get` stack, every listed object is", async () => {
      const a = world().emulator.url;
      const fleet = [await member("team/managed", stacks.managed, a)];
      const inventory = await takeInventory(world().api, SCOPE, async () => fleet, { log: () => {} });
      const reported = new Set(
        [...inventory.unmanaged, ...inventory.possiblyHeld, ...inventory.forgeOwn, ...inventory.ignored].map(
          (object) => `${object.kind} ${object.importId}`,
        ),
      );
      const heldHere = heldObjects(holdingsOf(stacks.managed)).filter(({ object }) => listed(object.kind));
      for (const { object, holder } of heldHere)
        expect.soft(reported.has(`${object.kind} ${object.importId}`), `${holder.kind}: ${object.importId}`).toBe(false);
      expect(inventory.heldTwice).toEqual([]);
      expect(inventory.counts.held).toBeGreaterThanOrEqual(heldHere.length);

      // The `get` stack beside the managed one: what the managed stack holds is held once, not twice.
      const both = await takeInventory(world().api, SCOPE, async () => [...fleet, await member("team/reader", stacks.reader, a)], {
        log: () => {},
      });
      expect(both.heldTwice).toEqual([]);

      const readers = [await member("team/reader", stacks.reader, a)];
      const unheld = await takeInventory(world().api, SCOPE, async () => readers, { log: () => {} });
      expect(unheld.counts.held).toBe(0);
      const visible = new Set([...unheld.unmanaged, ...unheld.forgeOwn].map((object) => `${object.kind} ${object.importId}`));
      for (const { object, holder } of heldHere)
        expect.soft(visible.has(`${object.kind} ${object.importId}`), `${holder.kind}: ${object.importId}`).toBe(true);
    });

    it("unmanaged, on forge B: the managed stack holds nothing there (its resources are on A), whatever its config says", async () => {
      const onB = await member("team/managed", stacks.managed, forgeB.url);
      expect(onB.resources).toEqual([]);
      expect(onB.possibly).toEqual([]);
      expect(onB.state.elsewhere.count).toBe(KINDS.length);
      // A name of forge A that is not its URL's (localhost for 127.0.0.1) is forge A.
      const spelled = world().emulator.url.replace("127.0.0.1", "localhost");
      expect((await member("team/managed", stacks.managed, spelled)).resources.length).toBe(heldObjects(holdingsOf(stacks.managed)).length);
    });

    it("forge-adopt --stacks-file adopts what no stack holds, never what the managed stack holds", async () => {
      const a = world().emulator.url;
      const fleet = await member("team/managed", stacks.managed, a);
      const inventory = await takeInventory(world().api, SCOPE, async () => [fleet], { log: () => {} });
      const adoption = await adoptionOf({ forge: a, client: world().api, states: [fleet.state], inventory, rules: [] }, false);
      const adopted = new Set(adoption.resources.map((resource) => `${resource.declaration.name} ${resource.importId}`));
      for (const { object, holder } of heldObjects(holdingsOf(stacks.managed)))
        expect.soft(adopted.has(`${object.kind} ${object.importId}`), `${holder.kind}: ${object.importId}`).toBe(false);
    });

    it("drift from exports and after a refresh: each resource read on its own forge (A), clean; what a person changes on A is drift for the managed stack, never for the `get` stack", async () => {
      const reads = new SharedReads();
      reads.allExported();
      const clean = await stateDrift(shown.managed, reads, process.env);
      expect(clean).toEqual({ drifted: [] });
      const secretsAndRotation: DriftedResource[] = [];
      expect(await afterRefresh(shown.managed, secretsAndRotation, new Set(), process.env, undefined, () => {})).toEqual([]);
      expect(secretsAndRotation).toEqual([]);

      const changed: string[] = [];
      for (const object of made) {
        if (!object.fixture.drift) continue;
        await object.fixture.drift(world(), object.outs);
        changed.push(object.kind);
      }
      const found = await stateDrift(shown.managed, new SharedReads(0), process.env);
      expect(
        "drifted" in found && [...new Set(found.drifted.map((resource) => resource.type.slice(resource.type.lastIndexOf(":") + 1)))].sort(),
      ).toEqual([...new Set(changed)].sort());
      expect(await stateDrift(shown.reader, new SharedReads(0), process.env)).toEqual({ drifted: [] });
    });

    it("forge-recover: every pending update and delete is found with its id, though the engine wrote it into one of them only", () => {
      const resources = shown.managed.resources ?? [];
      const custom = resources.filter((resource) => resource.custom && resource.id && !resource.type.startsWith("pulumi:"));
      const pending = custom.map((resource, index) => ({
        type: index % 2 === 0 ? "updating" : "deleting",
        resource: { ...resource, ...(index === 0 ? {} : { id: undefined }) },
      }));
      const changes = pendingChanges(holdingsOf({ resources, pending_operations: pending }));
      expect(changes.map((change) => [change.type, change.id]).sort()).toEqual(
        custom.map((resource, index) => [made[index]!.kind, resource.id]).sort(),
      );
    });
  });
}
