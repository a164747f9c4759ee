/**
 * A fleet's drift from exported states (cli/state-drift.ts), over real HTTP to the emulator: the
 * states are what `pulumi stack export --show-secrets` prints for stacks of either face, their
 * resources made by the engine's own create. The stacks' reads under one parent share its
 * listing; each stack reads with the connection its provider recorded; a state only the engine's
 * refresh can judge is said to be one.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SharedReads, stateDrift } from "../../cli/state-drift";
import type { ExportedDeployment } from "../../provider/holdings/holdings";
import { SECRET_SIG, SIG_KEY } from "../../provider/secret-marks";
import { clientFor } from "../../provider/client";
import { operationsOver } from "../../provider/composition-root";
import { typeTokenOf, type Face } from "../../provider/type-tokens";
import { useWorld } from "./world";

const world = useWorld();
const STACKS = 40;

/** A secret as an export with `--show-secrets` writes it. */
const secret = (value: string) => ({ [SIG_KEY]: SECRET_SIG, plaintext: JSON.stringify(value) });

/** One stack's exported state holding one label made by the engine, on `face`, with `token` recorded by its provider. */
async function labelStack(face: Face, name: string, token: string): Promise<ExportedDeployment> {
  const url = world().emulator.url;
  const inputs = { group: "acme", name, color: "#FF0000" };
  const made = await operationsOver("GroupLabel", clientFor({ baseUrl: url, token: world().user("root").token }), () => undefined).create(
    inputs,
  );
  const stackUrn = `urn:pulumi:${name}::fleet::pulumi:pulumi:Stack::fleet-${name}`;
  const providerType = face === "plugin" ? "pulumi:providers:forge" : "pulumi:providers:pulumi-nodejs";
  const providerUrn = `urn:pulumi:${name}::fleet::${providerType}::default`;
  const dynamic = face === "dynamic" ? { __provider: "exports.handler = __f0;" } : {};
  return {
    resources: [
      { urn: stackUrn, type: "pulumi:pulumi:Stack", custom: false },
      {
        urn: providerUrn,
        type: providerType,
        custom: true,
        id: "c0ffee",
        inputs: face === "plugin" ? { baseUrl: url, token: secret(token) } : { "forge:baseUrl": url, "forge:token": secret(token) },
      },
      {
        urn: `urn:pulumi:${name}::fleet::${typeTokenOf(face, "GroupLabel")}::team`,
        type: typeTokenOf(face, "GroupLabel"),
        custom: true,
        id: made.id,
        provider: `${providerUrn}::c0ffee`,
        inputs: { ...inputs, ...dynamic },
        outputs: { ...made.outs, ...dynamic },
      },
    ],
  };
}

/** Checks the states a few at a time, as the fleet does. */
async function checkAll(states: ExportedDeployment[], reads: () => SharedReads) {
  const results: Awaited<ReturnType<typeof stateDrift>>[] = new Array(states.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < states.length; index = next++) results[index] = await stateDrift(states[index]!, reads(), {});
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return results;
}

describe("drift from exported states", () => {
  it("stacks of both faces under one parent share its listing: a few requests, not one per stack, and the same answers", async () => {
    const token = world().user("root").token;
    const states = await Promise.all(
      Array.from({ length: STACKS }, (_, index) => labelStack(index % 2 === 0 ? "plugin" : "dynamic", `fleet-${index}`, token)),
    );
    const changed = (await (
      await fetch(`${world().emulator.url}/api/v4/groups/acme/labels?per_page=100&search=fleet-7`, { headers: { "PRIVATE-TOKEN": token } })
    ).json()) as { id: number; name: string }[];
    await fetch(`${world().emulator.url}/api/v4/groups/acme/labels/${changed.find((label) => label.name === "fleet-7")!.id}`, {
      method: "PUT",
      headers: { "PRIVATE-TOKEN": token, "content-type": "application/json" },
      body: JSON.stringify({ color: "#00FF00" }),
    });

    const shared = new SharedReads();
    let requests = await world().requestCount();
    const together = await checkAll(states, () => shared);
    const sharedRequests = (await world().requestCount()) - requests;
    requests = await world().requestCount();
    const alone = await checkAll(states, () => new SharedReads());
    const aloneRequests = (await world().requestCount()) - requests;

    expect(together).toEqual(alone);
    expect(together.filter((found) => "drifted" in found && found.drifted.length > 0)).toEqual([
      {
        drifted: [
          {
            name: "team",
            type: "pulumi-nodejs:dynamic/forge:GroupLabel",
            urn: "urn:pulumi:fleet-7::fleet::pulumi-nodejs:dynamic/forge:GroupLabel::team",
            drift: "changed",
            fields: [{ field: "color", program: "#FF0000", forge: "#00FF00" }],
            alsoChanged: ["textColor"],
          },
        ],
      },
    ]);
    expect(aloneRequests).toBe(STACKS);
    // The first reads under the parent ask on their own until they have earned a page; the page holds every label.
    expect(sharedRequests).toBeLessThanOrEqual(5);
  });

  it("a stack's reads wait for the stacks exported after it, until every state is read", async () => {
    const reads = new SharedReads();
    const released: number[] = [];
    const turns = [0, 1].map((stack) => reads.turn().then(() => void released.push(stack)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(released).toEqual([]);
    reads.allExported();
    await Promise.all(turns);
    expect(released).toEqual([0, 1]);
    // Once every state is read, a turn comes at once.
    await reads.turn();
  });

  it("reads with the connection the stack's provider recorded, as a refresh does: a token revoked since is an error that does not show it", async () => {
    const [good, bad] = [
      await labelStack("plugin", "recorded-good", world().user("root").token),
      await labelStack("dynamic", "recorded-bad", "revoked-token-5e1d"),
    ];
    const reads = new SharedReads();
    // No FORGE_* in the environment: the connection comes from the state alone.
    expect(await stateDrift(good, reads, {})).toEqual({ drifted: [] });
    const failure = await stateDrift(bad, reads, {}).then(
      () => undefined,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    expect(failure).toMatch(/401/);
    expect(failure).not.toContain("revoked-token-5e1d");
  });

  it("finds a deleted object; leaves to the refresh a state holding another provider's resource, pending operations or a resource pending deletion", async () => {
    const state = await labelStack("plugin", "gone-label", world().user("root").token);
    const label = state.resources![2]!;
    await fetch(`${world().emulator.url}/api/v4/groups/acme/labels/${String(label.outputs!["labelId"])}`, {
      method: "DELETE",
      headers: { "PRIVATE-TOKEN": world().user("root").token },
    });
    expect(await stateDrift(state, new SharedReads(), {})).toEqual({
      drifted: [{ name: "team", type: "forge:index:GroupLabel", urn: label.urn, drift: "deleted", fields: [] }],
    });

    const other = {
      ...state,
      resources: [
        ...state.resources!,
        {
          urn: "urn:pulumi:x::fleet::random:index/randomPet:RandomPet::pet",
          type: "random:index/randomPet:RandomPet",
          custom: true,
          id: "pet",
        },
      ],
    };
    expect(await stateDrift(other, new SharedReads(), {})).toEqual({
      refresh: "its state holds random:index/randomPet:RandomPet, which only its own provider reads",
    });
    expect(await stateDrift({ ...state, pending_operations: [{ type: "creating", resource: label }] }, new SharedReads(), {})).toEqual({
      refresh: "its state has pending operations",
    });
    expect(await stateDrift({ resources: [...state.resources!, { ...label, delete: true }] }, new SharedReads(), {})).toEqual({
      refresh: "its state holds a resource pending deletion",
    });
  });

  it("reads a relative forge:caBundle from the stack's project directory, not the tool's (as the stack's own refresh does)", async () => {
    const state = await labelStack("plugin", "relative-ca", world().user("root").token);
    const project = mkdtempSync(join(tmpdir(), "forge-project-"));
    try {
      mkdirSync(join(project, "certs"));
      // Any PEM: an http:// forge never reads it; what is tested is where the file is looked for.
      writeFileSync(join(project, "certs", "ca.pem"), "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
      const provider = state.resources![1]!;
      provider.inputs = { ...provider.inputs, caBundle: "certs/ca.pem" };
      expect(await stateDrift(state, new SharedReads(), {}, project)).toEqual({ drifted: [] });
      await expect(stateDrift(state, new SharedReads(), {})).rejects.toThrow(/forge:caBundle .*ENOENT/);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it("does not call drift what the resource's ignoreChanges ignores (as `pulumi preview --refresh` shows nothing), and still what it does not", async () => {
    const state = await labelStack("dynamic", "ignored-color", world().user("root").token);
    const label = state.resources![2]!;
    const token = world().user("root").token;
    await fetch(`${world().emulator.url}/api/v4/groups/acme/labels/${String(label.outputs!["labelId"])}`, {
      method: "PUT",
      headers: { "PRIVATE-TOKEN": token, "content-type": "application/json" },
      body: JSON.stringify({ color: "#00FF00" }),
    });
    label.ignoreChanges = ["color"];
    expect(await stateDrift(state, new SharedReads(), {})).toEqual({ drifted: [] });
    label.ignoreChanges = ["description"];
    expect(await stateDrift(state, new SharedReads(), {})).toMatchObject({ drifted: [{ name: "team", fields: [{ field: "color" }] }] });
  });

  it("reads each resource on its own provider's forge, never the environment's; a `get` of another provider holds nothing to read", async () => {
    const state = await labelStack("plugin", "two-forges", world().user("root").token);
    const elsewhere = "http://127.0.0.1:9"; // nothing listens: a read there would fail
    state.resources!.push({
      urn: "urn:pulumi:two-forges::fleet::pulumi:providers:forge::default_0_1_0",
      type: "pulumi:providers:forge",
      custom: true,
      id: "d1",
      inputs: { baseUrl: elsewhere, token: secret("staging-token") },
    });
    const label = state.resources![2]!;
    state.resources!.push({
      ...label,
      urn: `${label.urn}-read`,
      external: true,
      provider: "urn:pulumi:two-forges::fleet::pulumi:providers:forge::default_0_1_0::d1",
    });
    expect(await stateDrift(state, new SharedReads(), { FORGE_BASE_URL: elsewhere })).toEqual({ drifted: [] });
  });
});
