/**
 * What only the real engine shows, each on one resource of the kind that has it, with the real
 * Pulumi CLI against the emulator: plain CRUD (GroupLabel, and a subscription that depends on
 * it), a setting of an existing object (JobTokenScope), a nested collection
 * (ProjectProtectedEnvironment), secret and write-only values in the state file
 * (ClusterAgentToken, ClusterAgentUrlConfiguration), the `import` option (the ClusterAgent they
 * belong to is adopted), refresh output of drift and deletion, a preview's unknown outputs, a failed run and the
 * next one converging, the order of replacements, an asynchronous create, an API rejection. A
 * bad input in the CLI's output is check-secrets.test.ts's and test/policies/preview.test.ts's.
 * Every type's life cycle (create, no-op diff and read, import, update, drift, deletion, removal
 * of inputs, delete, secrets) is test/contract/life-cycle.test.ts's, over both faces.
 *
 * One stack of the generic program; the tests run in order and build on each other, and each
 * operation asserts on every resource, so an operation that shows one kind's behaviour also
 * shows that the others did not move.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { State } from "../../provider/engine/declaration";
import { instanceSettings } from "../contract/world";
import { ForgeApi, leftInForge, type Rec } from "./forge-api";
import {
  bareOccurrences,
  filesContaining,
  isSecretEnvelope,
  namesWith,
  ref,
  ROOT_TOKEN,
  startE2eWorld,
  type E2eWorld,
  type ListedResource,
  type StateResource,
  type TestStack,
} from "./harness";
import { FAKE_CERT, FAKE_KEY, FAKE_KEY_BODY } from "./secrets-fixture";

const OP_TIMEOUT = 300_000;
const AGENT_PROJECT = "acme/platform/deployer";
const ENV_PROJECT = "acme/web";
const MTLS_URL = "grpcs://mtls.e2e.example.com:443";

/** What the tests vary in the stack; each step changes some of it. */
interface Variant {
  labelGroup: string;
  labelColor: string;
  labelDescription: string | undefined;
  scopeProject: string;
  environment: { deployAccessLevels: Rec[]; approvalRules?: Rec[] };
  agentImportId: string | undefined;
  tokenNames: string[];
  url: string;
}

const ALL = ["agent", "environment", "label", "scope", "subscription", "token-1", "token-2", "url"];
const except = (...names: string[]) => ALL.filter((name) => !names.includes(name));

function listed(v: Variant): ListedResource[] {
  return [
    {
      type: "GroupLabel",
      name: "label",
      inputs: { group: v.labelGroup, name: "e2e::bug", color: v.labelColor, description: v.labelDescription },
    },
    // Keyed by the label's id: a label's replacement or unknown outputs reach it.
    { type: "GroupLabelSubscription", name: "subscription", inputs: { group: v.labelGroup, labelId: ref("label", "labelId") } },
    { type: "JobTokenScope", name: "scope", inputs: { project: v.scopeProject, enabled: true } },
    {
      type: "ProjectProtectedEnvironment",
      name: "environment",
      inputs: { project: ENV_PROJECT, name: "e2e-production", ...v.environment },
    },
    {
      type: "ClusterAgent",
      name: "agent",
      inputs: { project: AGENT_PROJECT, name: "e2e-agent" },
      options: v.agentImportId === undefined ? {} : { import: v.agentImportId },
    },
    // Two tokens is the agent's limit: a replacement must revoke the old token first.
    ...v.tokenNames.map((name, index) => ({
      type: "ClusterAgentToken",
      name: `token-${index + 1}`,
      inputs: { project: AGENT_PROJECT, agentId: ref("agent", "agentId"), name, description: `e2e token ${index + 1}` },
      options: { deleteBeforeReplace: true },
    })),
    {
      type: "ClusterAgentUrlConfiguration",
      name: "url",
      inputs: {
        project: AGENT_PROJECT,
        agentId: ref("agent", "agentId"),
        url: v.url,
        clientCert: FAKE_CERT,
        clientKey: FAKE_KEY,
        tlsHost: "mtls.e2e.example.com",
      },
    },
  ];
}

let world: E2eWorld;
let forge: ForgeApi;
let stack: TestStack;
let variant: Variant;
/** The state after the last up. */
let state: Record<string, StateResource>;

async function declare(changes: Partial<Variant>): Promise<void> {
  variant = { ...variant, ...changes };
  await stack.declare(listed(variant));
}

async function readState(): Promise<Record<string, StateResource>> {
  return Object.fromEntries((await stack.resources()).map((resource) => [resource.name, resource]));
}

/** The sequence number of the emulator's last logged request, to look at what follows. */
async function lastRequest(): Promise<number> {
  return (await world.requests()).at(-1)?.seq ?? 0;
}

/** The first logged request since `since` with this method and a path ending with `suffix`. */
async function firstRequest(since: number, method: string, suffix: string): Promise<number | undefined> {
  return (await world.requests(since)).find((r) => r.method === method && r.path.endsWith(suffix))?.seq;
}

const out = (name: string, field: string) => state[name]?.outputs[field];

async function labelRecord(): Promise<Rec | undefined> {
  return forge.get("/groups/:group/labels/:labelId", { group: variant.labelGroup, labelId: out("label", "labelId") });
}

async function environmentRecord(): Promise<Rec | undefined> {
  return forge.get("/projects/:project/protected_environments/:name", { project: ENV_PROJECT, name: "e2e-production" });
}

beforeAll(async () => {
  world = await startE2eWorld();
  forge = new ForgeApi(world.api);
}, OP_TIMEOUT);

afterAll(async () => {
  await world?.close();
});

describe("e2e: one resource of each kind through the Pulumi CLI", () => {
  beforeAll(async () => {
    stack = await world.stack("resources", "kinds");
    const agent = await forge.send("POST", "/projects/:project/cluster_agents", { project: AGENT_PROJECT, name: "e2e-agent" });
    const olivia = world.fixtureWorld.user("olivia").id;
    await declare({
      labelGroup: "acme",
      labelColor: "red",
      labelDescription: "end-to-end",
      scopeProject: "acme/api",
      environment: { deployAccessLevels: [{ accessLevel: 40 }], approvalRules: [{ userId: olivia, requiredApprovals: 1 }] },
      agentImportId: `${AGENT_PROJECT}:${agent["id"]}`,
      tokenNames: ["e2e-one", "e2e-two"],
      url: MTLS_URL,
    });
  }, OP_TIMEOUT);

  it(
    "up creates each resource and adopts the agent made beforehand through the `import` option, without writing it",
    async () => {
      const mark = await lastRequest();
      const up = await stack.up();
      // The classes turn the import option into an adoption inside create: a "create" step too.
      expect(namesWith(up, "create")).toEqual(ALL);
      state = await readState();

      // Adopted, not made: no write to the agent itself, the forge still has one agent, and the
      // state's id is the import id.
      const agentWrites = (await world.requests(mark)).filter((r) => r.method !== "GET" && /\/cluster_agents(\/\d+)?$/.test(r.path));
      expect(agentWrites).toEqual([]);
      expect((await forge.list("/projects/:project/cluster_agents", { project: AGENT_PROJECT })).map((a) => a["name"])).toEqual([
        "e2e-agent",
      ]);
      expect(state["agent"]?.id).toBe(variant.agentImportId);

      expect(await labelRecord()).toMatchObject({ name: "e2e::bug", color: "#FF0000", subscribed: true });
      expect(await forge.scopeEnabled("acme/api")).toBe(true);
      expect(await environmentRecord()).toMatchObject({
        deploy_access_levels: [expect.objectContaining({ access_level: 40 })],
        approval_rules: [expect.objectContaining({ user_id: world.fixtureWorld.user("olivia").id, required_approvals: 1 })],
      });
      expect(await forge.tokenNames(AGENT_PROJECT, out("agent", "agentId"))).toEqual(["e2e-one", "e2e-two"]);
      expect((await forge.urlConfigurations(AGENT_PROJECT, out("agent", "agentId"))).map((c) => c["url"])).toEqual([MTLS_URL]);
    },
    OP_TIMEOUT,
  );

  it(
    "keeps the agent tokens, the client key and the API token out of the state in plain text",
    async () => {
      const tokens = ["token-1", "token-2"].map((name) => out(name, "token") as string);
      for (const token of tokens) expect(token).toMatch(/^\S{20,}$/);
      const secrets = [...tokens, FAKE_KEY_BODY, ROOT_TOKEN];

      // stack.exportStack() runs `pulumi stack export --show-secrets`: the secrets are there, but
      // only inside secret envelopes (resource outputs and inputs, and the stack's outputs).
      const exported = (await stack.exportedState()) as { deployment: { resources: { urn: string; inputs: State; outputs: State }[] } };
      const exportedText = JSON.stringify(exported);
      for (const secret of [...tokens, FAKE_KEY_BODY]) expect(exportedText).toContain(secret);
      expect(bareOccurrences(exported, secrets)).toEqual([]);
      const resource = (name: string) => exported.deployment.resources.find((r) => r.urn.endsWith(`::${name}`));
      for (const name of ["token-1", "token-2"]) expect(isSecretEnvelope(resource(name)?.outputs["token"]), name).toBe(true);
      expect(isSecretEnvelope(resource("url")?.outputs["clientKey"])).toBe(true);
      expect(isSecretEnvelope(resource("url")?.inputs["clientKey"])).toBe(true);

      // Stored, and exported as a user does: no secret in plain text anywhere, not even escaped.
      const encrypted = await stack.exportedStateEncrypted();
      expect(encrypted).toContain("ciphertext");
      for (const secret of secrets) expect(encrypted.includes(secret), `pulumi stack export shows ${secret.slice(0, 16)}...`).toBe(false);
      expect(filesContaining(world.backendDir, secrets)).toEqual([]);
      // Control: a plain value of the same resource is found, so the search does see them.
      expect(encrypted).toContain(MTLS_URL);
      expect(filesContaining(world.backendDir, [MTLS_URL]).length).toBeGreaterThan(0);
    },
    OP_TIMEOUT,
  );

  it(
    "an out-of-band change and deletion are reported by refresh, and undone by up (an environment entry: as an update; the label made again without duplicates)",
    async () => {
      const labelId = out("label", "labelId");
      await forge.send("PATCH", "/projects/:project/job_token_scope", { project: "acme/api", enabled: false });
      const entry = ((await environmentRecord())?.["deploy_access_levels"] as Rec[])[0] as Rec;
      await forge.send("PUT", "/projects/:project/protected_environments/:name", {
        project: ENV_PROJECT,
        name: "e2e-production",
        deploy_access_levels: [{ id: entry["id"], access_level: 30 }],
      });
      await forge.send("DELETE", "/groups/:group/labels/:labelId", { group: "acme", labelId }); // the subscription goes with it
      // Imported once, the agent needs its import option no more.
      await declare({ agentImportId: undefined });
      const drifted = ["environment", "scope"];
      const deleted = ["label", "subscription"];

      const refresh = await stack.refresh();
      expect(namesWith(refresh, "refresh", "update")).toEqual(drifted);
      expect(namesWith(refresh, "refresh", "delete")).toEqual(deleted);
      expect(namesWith(refresh, "refresh", "same")).toEqual(except(...drifted, ...deleted));
      expect((await readState())["scope"]?.outputs).toMatchObject({ enabled: false }); // the forge's value, recorded
      expect((await stack.resourceNames()).sort()).toEqual(except(...deleted));

      // No preview first: the up's steps below are the plan a preview shows (a preview's unknown
      // outputs are the next test's).
      const up = await stack.up();
      expect(namesWith(up, "update")).toEqual(drifted);
      expect(namesWith(up, "create")).toEqual(deleted);
      // The agent without its import option: no diff.
      expect(namesWith(up, "same")).toEqual(except(...drifted, ...deleted));
      state = await readState();
      expect(out("label", "labelId")).not.toBe(labelId);
      expect((await forge.labels("acme")).map((l) => [l["id"], l["name"], l["subscribed"]])).toEqual([
        [out("label", "labelId"), "e2e::bug", true],
      ]);
      expect(await forge.scopeEnabled("acme/api")).toBe(true);
      const entries = (await environmentRecord())?.["deploy_access_levels"] as Rec[];
      expect(entries.map((e) => e["access_level"])).toEqual([40]);
    },
    OP_TIMEOUT,
  );

  it(
    "an API rejection fails up with the server's message; the next up converges without duplicates, and inputs dropped from the program are reset on the forge",
    async () => {
      await declare({ tokenNames: ["e2e-one", "e2e-two", "e2e-three"], labelDescription: "end-to-end, reworded" });
      const output = await stack.fails("up");
      expect(output).toContain("ClusterAgentToken token-3 **creating failed**");
      expect(output).toMatch(
        /POST \/projects\/acme%2Fplatform%2Fdeployer\/cluster_agents\/\d+\/tokens failed: 400 .*An agent can have only two active tokens at a time/,
      );

      await declare({
        tokenNames: ["e2e-one", "e2e-two"],
        labelDescription: undefined,
        environment: { deployAccessLevels: variant.environment.deployAccessLevels },
      });
      const preview = await stack.preview();
      expect(namesWith(preview, "update")).toEqual(["environment", "label"]);
      // A dynamic provider cannot preview an update, so the label's outputs are unknown in the
      // preview, and the subscription, keyed by the label's id, shows as a possible replacement.
      // The update itself keeps the id, and the subscription (the up below).
      expect(namesWith(preview, "create-replacement", "replace", "delete-replaced")).toEqual(["subscription"]);

      const up = await stack.up();
      expect(up.changes["create"] ?? 0).toBe(0);
      expect(namesWith(up, "update")).toEqual(["environment", "label"]);
      expect(namesWith(up, "same")).toEqual(except("environment", "label"));
      expect(await stack.resourceNames()).toHaveLength(ALL.length);
      expect(await forge.tokenNames(AGENT_PROJECT, out("agent", "agentId"))).toEqual(["e2e-one", "e2e-two"]);
      expect(await labelRecord()).toMatchObject({ description: "" });
      expect(await environmentRecord()).toMatchObject({ approval_rules: [] });
      // That the state it wrote diffs clean against the program (updated and reset inputs alike)
      // is the life cycle's, for every type on both faces.
      state = await readState();
    },
    OP_TIMEOUT,
  );

  it(
    "an immutable change replaces (deleting first where the forge needs it); an entry change is an update; the old scope is restored",
    async () => {
      const before = state;
      const agentId = out("agent", "agentId");
      const max = world.fixtureWorld.user("max").id;
      await declare({
        labelGroup: "acme/platform",
        scopeProject: "acme/web",
        environment: {
          deployAccessLevels: [{ accessLevel: 30 }, { userId: max }],
          approvalRules: [{ accessLevel: 40, requiredApprovals: 2 }],
        },
        tokenNames: ["e2e-one-b", "e2e-two"],
        url: "grpcs://mtls-b.e2e.example.com:443",
      });
      const replaced = ["label", "scope", "subscription", "token-1", "url"];

      const mark = await lastRequest();
      const up = await stack.up();
      expect(
        Object.entries(up.steps)
          .filter(([, ops]) => ops.includes("replace"))
          .map(([name]) => name)
          .sort(),
      ).toEqual(replaced);
      expect(namesWith(up, "update")).toEqual(["environment"]);
      expect(namesWith(up, "same")).toEqual(["agent", "token-2"]);
      state = await readState();
      for (const name of replaced) expect(state[name]?.id, name).not.toEqual(before[name]?.id);
      expect(state["environment"]?.id).toEqual(before["environment"]?.id);

      // Deleted before the replacement was created: the label (unique across a group and its
      // ancestors), the URL configuration (one per agent), the token (the deleteBeforeReplace
      // option: two per agent).
      const order = async (what: string, deleted: string, created: string) => {
        const deletedAt = await firstRequest(mark, "DELETE", deleted);
        const createdAt = await firstRequest(mark, "POST", created);
        expect(
          deletedAt !== undefined && createdAt !== undefined && deletedAt < createdAt,
          `${what}: DELETE ${deleted} at ${deletedAt}, POST ${created} at ${createdAt}`,
        ).toBe(true);
      };
      await order("label", `/groups/acme/labels/${before["label"]?.outputs["labelId"]}`, "/groups/acme%2Fplatform/labels");
      await order(
        "url",
        `/url_configurations/${before["url"]?.outputs["urlConfigurationId"]}`,
        `/cluster_agents/${agentId}/url_configurations`,
      );
      await order("token-1", `/tokens/${before["token-1"]?.outputs["tokenId"]}`, `/cluster_agents/${agentId}/tokens`);

      // The forge holds the new objects only.
      expect((await forge.labels("acme")).map((l) => l["name"])).toEqual([]);
      expect((await forge.labels("acme/platform")).map((l) => [l["name"], l["subscribed"]])).toEqual([["e2e::bug", true]]);
      expect((await forge.urlConfigurations(AGENT_PROJECT, agentId)).map((c) => c["url"])).toEqual(["grpcs://mtls-b.e2e.example.com:443"]);
      expect(await forge.tokenNames(AGENT_PROJECT, agentId)).toEqual(["e2e-one-b", "e2e-two"]);
      expect(await forge.scopeEnabled("acme/api")).toBe(false); // restored to the value found at creation
      expect(await forge.scopeEnabled("acme/web")).toBe(true);
      expect(await environmentRecord()).toMatchObject({
        deploy_access_levels: [expect.objectContaining({ access_level: 30 }), expect.objectContaining({ user_id: max })],
        approval_rules: [expect.objectContaining({ access_level: 40, required_approvals: 2 })],
      });
    },
    OP_TIMEOUT,
  );

  // An asynchronous create (the forge answers before the work is done), in a stack of its own so
  // that the main stack's steps stay as they are: up waits for the move with its progress in
  // the output, and a refresh of a move left to run, which then fails, reports it. (A move's
  // no-op diff and its delete, which only forgets, are the life cycle's.)
  it(
    "up waits for a repository storage move, logging its progress; a refresh sees a move that failed later",
    async () => {
      const moves = await world.stack("resources", "moves");
      const projectsOn = async (storage: string) => (await forge.list("/projects", { repository_storage: storage })).length;
      const move = (inputs: State): ListedResource => ({
        type: "RepositoryStorageMove",
        name: "move",
        inputs: { kind: "project", ...inputs },
      });
      await instanceSettings(world.fixtureWorld, { storage_move_ms: 1_500 });

      await moves.declare([move({ sourceStorageName: "default", destinationStorageName: "secondary" })]);
      const started = Date.now();
      const up = await moves.up();
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
      expect(namesWith(up, "create")).toEqual(["move"]);
      expect(up.output).toContain("RepositoryStorageMove project:default:secondary: state is scheduled");
      expect(up.output).toContain("RepositoryStorageMove project:default:secondary: state is finished");
      expect([await projectsOn("default"), await projectsOn("secondary")]).toEqual([0, 3]);

      // Back the other way, without waiting; the forge then fails every repository's move.
      await instanceSettings(world.fixtureWorld, { storage_move_ms: 300, storage_move_error: "destination storage unavailable" });
      await moves.declare([move({ sourceStorageName: "secondary", destinationStorageName: "default", waitForCompletion: false })]);
      const back = await moves.up();
      expect(namesWith(back, "create-replacement", "replace", "delete-replaced")).toEqual(["move"]);
      // Recorded before the move ended: scheduled, or started already on a loaded machine (the
      // forge takes 300 ms; a base run here once read "started").
      expect((await moves.resources())[0]?.outputs).toMatchObject({ state: expect.stringMatching(/^(scheduled|started)$/), remaining: 3 });
      await new Promise((done) => setTimeout(done, 500));
      // The inputs read back are the program's: the engine counts the step as `same` and records
      // the new outputs, which say how the move ended and why.
      const refresh = await moves.refresh();
      expect(namesWith(refresh, "refresh", "same")).toEqual(["move"]);
      // ...and the run says how the move went since the state was written.
      expect(refresh.output).toMatch(
        /RepositoryStorageMove project:secondary:default: state was (scheduled|started), is failed: 3 of 3 repositories failed to move: destination storage unavailable/,
      );
      expect((await moves.resources())[0]?.outputs).toMatchObject({
        state: "failed",
        remaining: 3,
        errorMessage: "3 of 3 repositories failed to move: destination storage unavailable",
      });
      expect(await projectsOn("secondary")).toBe(3);
      await instanceSettings(world.fixtureWorld, { storage_move_ms: 0, storage_move_error: "" });
    },
    OP_TIMEOUT,
  );

  it(
    "destroy leaves nothing in the forge, the adopted agent included, and restores the job token scope",
    async () => {
      const destroy = await stack.destroy();
      expect(namesWith(destroy, "delete")).toEqual(ALL);
      expect(await leftInForge(world.fixtureWorld, Object.values(state))).toEqual([]);
      expect(await forge.scopeEnabled("acme/web")).toBe(false);
      expect(await forge.scopeEnabled("acme/api")).toBe(false);
      expect(await stack.resourceNames()).toEqual([]);
    },
    OP_TIMEOUT,
  );
});

describe("e2e: the raw engine's import", () => {
  it(
    "cannot import a plain pulumi.dynamic.Resource",
    async () => {
      const raw = await world.stack("raw-import", "raw");
      const output = await raw.fails("up");
      // Engine 3.259 imports by calling the provider's Read with the id alone. The request has no
      // properties at all (so no serialized provider either), and the dynamic provider server of
      // @pulumi/pulumi fails on `req.getProperties().toJavaScript()` before any provider code runs:
      //
      //   =  pulumi-nodejs:dynamic:Resource raw **importing failed** error: Cannot read properties of undefined (reading 'toJavaScript')
      //   TypeError: Cannot read properties of undefined (reading 'toJavaScript')
      //       at ResourceProviderService.read (.../@pulumi/cmd/dynamic-provider/index.ts:272:46)
      expect(output).toContain(
        "pulumi-nodejs:dynamic:Resource raw **importing failed** error: Cannot read properties of undefined (reading 'toJavaScript')",
      );
      expect(output).toContain("at ResourceProviderService.read");
      expect(await raw.resourceNames()).toEqual([]);
    },
    OP_TIMEOUT,
  );
});
