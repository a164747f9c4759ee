/**
 * The life of a stack holding all eleven resources, with the real Pulumi CLI against the
 * emulator: create, no-op preview and refresh, secrets in state, out-of-band changes and
 * deletions, replacements, a bad input, an API rejection, destroy. One stack; each step acts on
 * every resource at once. The tests run in order and build on each other.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENT_PROJECT, DECLARED_CENSUS, EMPTY_CENSUS, ENV_PROJECT, ForgeApi, SCOPE_PROJECT, type Rec } from "./forge-api";
import { FAKE_CERT, FAKE_KEY, FAKE_KEY_BODY } from "./secrets-fixture";
import { bareOccurrences, filesContaining, isSecretEnvelope, ROOT_TOKEN, startE2eWorld, type E2eWorld, type OpResult, type TestStack } from "./harness";

const OP_TIMEOUT = 300_000;

/** Logical names in the stack, one or more per resource type. */
const ALL = ["label", "subscription", "message", "jwt-agent", "mtls-agent", "token-1", "token-2", "jwt-url", "mtls-url", "scope", "allow-project", "allow-group", "project-env", "group-env"];

/** The resources whose steps in an operation were exactly `ops` (in any order), sorted. */
function namesWith(result: OpResult, ...ops: string[]): string[] {
  return Object.entries(result.steps)
    .filter(([, steps]) => steps.length === ops.length && ops.every((op) => steps.includes(op)))
    .map(([name]) => name)
    .sort();
}

const sorted = (names: string[]) => [...names].sort();

interface StateResource { urn: string; type: string; inputs: Rec; outputs: Rec }

let world: E2eWorld;
let forge: ForgeApi;
let stack: TestStack;

async function output<T>(name: string): Promise<T> {
  return (await stack.outputs())[name]?.value as T;
}

/** A resource's record in the state (from `stack.exportStack()`). */
async function stateOf(name: string): Promise<StateResource | undefined> {
  const exported = (await stack.exportedState()) as { deployment: { resources: StateResource[] } };
  return exported.deployment.resources.find((r) => r.urn.endsWith(`::${name}`));
}

describe("e2e: all resources through the Pulumi CLI", () => {
  beforeAll(async () => {
    world = await startE2eWorld();
    forge = new ForgeApi(world.api);
    stack = await world.stack("all", "lifecycle");
    // The key is secret config, as it should be; the program reads it as a plain value on purpose.
    await stack.setConfig({ clientCert: FAKE_CERT, clientKey: { value: FAKE_KEY, secret: true } });
  }, OP_TIMEOUT);

  afterAll(async () => {
    await world?.close();
  });

  it("up creates every resource; a second preview and a refresh show no changes", async () => {
    const up = await stack.up();
    expect(namesWith(up, "create")).toEqual(sorted(ALL));
    expect(await forge.census()).toEqual(DECLARED_CENSUS);

    const labelId = await output<number>("labelId");
    expect(await forge.label("acme", labelId)).toMatchObject({ name: "e2e::bug", color: "#FF0000", subscribed: true });
    expect(await forge.scopeEnabled(SCOPE_PROJECT)).toBe(true);
    expect((await forge.urlConfigurations(await output("jwtAgentId")))[0]).toMatchObject({ url: "grpcs://jwt.e2e.example.com:443" });
    expect((await forge.tokens(await output("jwtAgentId"))).map((t) => t["name"]).sort()).toEqual(["e2e-one", "e2e-two"]);
    expect((await forge.messages())[0]).toMatchObject({ message: "e2e maintenance window", target_access_levels: [30, 40] });
    expect((await forge.projectEnvironments(ENV_PROJECT))[0]).toMatchObject({
      name: "e2e-production",
      deploy_access_levels: [expect.objectContaining({ access_level: 40 })],
      approval_rules: [expect.objectContaining({ user_id: 2, required_approvals: 1 })],
    });

    const preview = await stack.preview();
    expect(Object.keys(preview.changes)).toEqual(["same"]);
    expect(namesWith(preview, "same")).toEqual(sorted(ALL));

    const refresh = await stack.refresh();
    expect(Object.keys(refresh.changes)).toEqual(["same"]);
  }, OP_TIMEOUT);

  it("keeps the agent tokens, the client key and the API token out of the state in plain text", async () => {
    const tokens = (await stack.outputs())["tokenValues"]?.value as string[];
    expect(tokens).toHaveLength(2);
    for (const token of tokens) expect(token).toMatch(/^\S{20,}$/);
    const secrets = [...tokens, FAKE_KEY_BODY, ROOT_TOKEN];

    // stack.exportStack() runs `pulumi stack export --show-secrets`: the secrets are there, but
    // only inside secret envelopes (resource outputs and inputs, and the stack's outputs).
    const exported = (await stack.exportedState()) as { deployment: { resources: StateResource[] } };
    const exportedText = JSON.stringify(exported);
    for (const secret of [...tokens, FAKE_KEY_BODY]) expect(exportedText).toContain(secret);
    expect(bareOccurrences(exported, secrets)).toEqual([]);
    const resource = (name: string) => exported.deployment.resources.find((r) => r.urn.endsWith(`::${name}`)) as StateResource;
    for (const name of ["token-1", "token-2"]) expect(isSecretEnvelope(resource(name).outputs["token"]), name).toBe(true);
    expect(isSecretEnvelope(resource("mtls-url").outputs["clientKey"])).toBe(true);
    expect(isSecretEnvelope(resource("mtls-url").inputs["clientKey"])).toBe(true);

    // Stored, and exported as a user does: no secret in plain text anywhere, not even escaped.
    const encrypted = await stack.exportedStateEncrypted();
    expect(encrypted).toContain("ciphertext");
    for (const secret of secrets) expect(encrypted.includes(secret), `pulumi stack export shows ${secret.slice(0, 16)}...`).toBe(false);
    expect(filesContaining(world.backendDir, secrets)).toEqual([]);
    // Control: plain values of the same resources are found, so the search does see them.
    expect(encrypted).toContain("grpcs://mtls.e2e.example.com:443");
    expect(filesContaining(world.backendDir, ["grpcs://mtls.e2e.example.com:443"]).length).toBeGreaterThan(0);
  }, OP_TIMEOUT);

  it("an out-of-band change is reported by refresh and undone by up", async () => {
    const labelId = await output<number>("labelId");
    const ids = await output<Record<string, unknown>>("ids");
    const messageId = String(ids["message"]);
    await forge.send("PUT", "/groups/:group/labels/:labelId", { group: "acme", labelId, color: "#00FF00" });
    await forge.send("PUT", "/broadcast_messages/:id", { id: messageId, message: "tampered" });
    await forge.send("PATCH", "/projects/:project/job_token_scope", { project: SCOPE_PROJECT, enabled: false });
    const env = (await forge.projectEnvironments(ENV_PROJECT))[0] as Rec;
    const deploy = (env["deploy_access_levels"] as Rec[])[0] as Rec;
    await forge.send("PUT", "/projects/:project/protected_environments/:name", {
      project: ENV_PROJECT,
      name: env["name"],
      deploy_access_levels: [{ id: deploy["id"], access_level: 30 }],
    });
    await forge.send("PUT", "/groups/:group/protected_environments/:name", { group: "acme", name: "production", required_approval_count: 3 });
    // The agents, tokens, URL configurations, allowlist entries and the subscription have no
    // mutable server state: for them, drift is deletion (next test).
    const drifted = ["label", "message", "scope", "project-env", "group-env"];

    const refresh = await stack.refresh();
    expect(namesWith(refresh, "refresh", "update")).toEqual(sorted(drifted));
    expect(namesWith(refresh, "refresh", "same")).toEqual(sorted(ALL.filter((name) => !drifted.includes(name))));
    expect((await stateOf("label"))?.outputs).toMatchObject({ labelId, color: "#00FF00" }); // the forge's value, recorded

    const preview = await stack.preview();
    expect(namesWith(preview, "update")).toEqual(sorted(drifted));
    // A dynamic provider cannot preview an update, so the label's outputs are unknown in the
    // preview, and the subscription, keyed by the label's id, shows as a possible replacement.
    // The update itself keeps the id, and the subscription (see the up below).
    expect(namesWith(preview, "create-replacement", "replace", "delete-replaced")).toEqual(["subscription"]);
    expect(namesWith(preview, "same")).toEqual(sorted(ALL.filter((name) => !drifted.includes(name) && name !== "subscription")));

    const up = await stack.up();
    expect(namesWith(up, "update")).toEqual(sorted(drifted));
    expect(namesWith(up, "same")).toEqual(sorted(ALL.filter((name) => !drifted.includes(name))));
    expect(await forge.label("acme", labelId)).toMatchObject({ color: "#FF0000" });
    expect(await forge.get("/broadcast_messages/:id", { id: messageId })).toMatchObject({ message: "e2e maintenance window" });
    expect(await forge.scopeEnabled(SCOPE_PROJECT)).toBe(true);
    const envAfter = (await forge.projectEnvironments(ENV_PROJECT))[0] as Rec;
    expect((envAfter["deploy_access_levels"] as Rec[]).map((entry) => entry["access_level"])).toEqual([40]);
    expect(await forge.get("/groups/:group/protected_environments/:name", { group: "acme", name: "production" })).toMatchObject({ required_approval_count: 1 });
    expect(Object.keys((await stack.preview()).changes)).toEqual(["same"]);
  }, OP_TIMEOUT);

  it("an out-of-band deletion is dropped by refresh and recreated by up", async () => {
    const labelId = await output<number>("labelId");
    const jwtAgentId = await output<number>("jwtAgentId");
    const ids = await output<Record<string, string | string[]>>("ids");
    const tokenId = String(ids["tokens"]?.[0]).split(":").pop();
    const jwtUrlId = await output<number>("jwtUrlConfigurationId");
    const mtlsAgentId = await output<number>("mtlsAgentId");

    await forge.send("DELETE", "/groups/:group/labels/:labelId", { group: "acme", labelId }); // the subscription goes with it
    await forge.send("DELETE", "/broadcast_messages/:id", { id: ids["message"] });
    await forge.send("DELETE", "/projects/:project/cluster_agents/:agentId/tokens/:tokenId", { project: AGENT_PROJECT, agentId: jwtAgentId, tokenId });
    await forge.send("DELETE", "/projects/:project/cluster_agents/:agentId/url_configurations/:id", { project: AGENT_PROJECT, agentId: jwtAgentId, id: jwtUrlId });
    await forge.send("DELETE", "/projects/:project/cluster_agents/:agentId", { project: AGENT_PROJECT, agentId: mtlsAgentId }); // and its URL configuration
    await forge.send("DELETE", "/projects/:project/job_token_scope/allowlist/:id", { project: SCOPE_PROJECT, id: 1 });
    await forge.send("DELETE", "/projects/:project/job_token_scope/groups_allowlist/:id", { project: SCOPE_PROJECT, id: 2 });
    await forge.send("DELETE", "/projects/:project/protected_environments/:name", { project: ENV_PROJECT, name: "e2e-production" });
    await forge.send("DELETE", "/groups/:group/protected_environments/:name", { group: "acme", name: "production" });
    // The job token scope is a setting of the project: it cannot be deleted.
    const deleted = ALL.filter((name) => !["jwt-agent", "token-2", "scope"].includes(name));

    const refresh = await stack.refresh();
    expect(namesWith(refresh, "refresh", "delete")).toEqual(sorted(deleted));
    expect(sorted(await stack.resourceNames())).toEqual(["jwt-agent", "scope", "token-2"]);

    const up = await stack.up();
    expect(namesWith(up, "create")).toEqual(sorted(deleted));
    expect(await forge.census()).toEqual(DECLARED_CENSUS);
    expect(await output<number>("labelId")).not.toBe(labelId);
    expect(Object.keys((await stack.preview()).changes)).toEqual(["same"]);
  }, OP_TIMEOUT);

  it("a change to an immutable input replaces the resource (the URL configuration deletes first)", async () => {
    const before = await output<Record<string, unknown>>("ids");
    const jwtAgentId = await output<number>("jwtAgentId");
    const oldJwtUrlId = await output<number>("jwtUrlConfigurationId");
    await stack.setConfig({
      labelGroup: "acme/platform",
      mtlsAgentName: "e2e-mtls-b",
      token1Name: "e2e-one-b",
      jwtUrl: "grpcs://jwt-b.e2e.example.com:443",
      scopeProject: "acme/web",
      allowProjectId: "3",
      allowGroupId: "1",
      projectEnvName: "e2e-production-b",
      groupEnvTier: "staging",
    });
    // The message has no immutable input; jwt-agent and token-2 do not change.
    const replaced = ALL.filter((name) => !["message", "jwt-agent", "token-2"].includes(name));

    const preview = await stack.preview();
    expect(namesWith(preview, "same")).toEqual(["jwt-agent", "message", "token-2"]);
    expect(sorted(Object.entries(preview.steps).filter(([, ops]) => ops.includes("replace")).map(([name]) => name))).toEqual(sorted(replaced));

    const mark = (await world.requests()).at(-1)?.seq ?? 0;
    const up = await stack.up();
    expect(up.changes["replace"]).toBe(replaced.length);
    const after = await output<Record<string, unknown>>("ids");
    for (const name of ["label", "subscription", "mtlsAgent", "jwtUrl", "mtlsUrl", "scope", "allowProject", "allowGroup", "projectEnv", "groupEnv"]) {
      expect(after[name], name).not.toEqual(before[name]);
    }
    expect((after["tokens"] as string[])[0]).not.toEqual((before["tokens"] as string[])[0]);
    expect((after["tokens"] as string[])[1]).toEqual((before["tokens"] as string[])[1]);

    // One URL configuration per agent: the old one was deleted before the new one was created.
    const log = await world.requests(mark);
    const deleteOld = log.find((r) => r.method === "DELETE" && r.path.endsWith(`/url_configurations/${oldJwtUrlId}`));
    const createNew = log.find((r) => r.method === "POST" && r.path.endsWith(`/cluster_agents/${jwtAgentId}/url_configurations`));
    expect(deleteOld && createNew && deleteOld.seq < createNew.seq, JSON.stringify(log.filter((r) => r.path.includes("url_config")))).toBe(true);
    expect((await forge.urlConfigurations(jwtAgentId)).map((c) => c["url"])).toEqual(["grpcs://jwt-b.e2e.example.com:443"]);

    // The emulator holds the new objects only.
    expect((await forge.labels("acme")).length).toBe(0);
    expect((await forge.labels("acme/platform")).map((l) => [l["name"], l["subscribed"]])).toEqual([["e2e::bug", true]]);
    expect((await forge.agents()).map((a) => a["name"]).sort()).toEqual(["e2e-jwt", "e2e-mtls-b"]);
    expect((await forge.tokens(jwtAgentId)).map((t) => t["name"]).sort()).toEqual(["e2e-one-b", "e2e-two"]);
    expect(await forge.scopeEnabled("acme/api")).toBe(false); // restored to the value found at creation
    expect(await forge.scopeEnabled("acme/web")).toBe(true);
    expect(await forge.allowedProjects(SCOPE_PROJECT)).toEqual([3]);
    expect(await forge.allowedGroups(SCOPE_PROJECT)).toEqual([1]);
    expect((await forge.projectEnvironments(ENV_PROJECT)).map((e) => e["name"])).toEqual(["e2e-production-b"]);
    expect((await forge.groupEnvironments("acme")).map((e) => e["name"])).toEqual(["staging"]);
    expect(await forge.census()).toEqual(DECLARED_CENSUS);
  }, OP_TIMEOUT);

  it("a bad input fails preview with the field named", async () => {
    await stack.setConfig({ labelColor: "reddish" });
    const output = await stack.fails("preview");
    expect(output).toContain(
      "GroupLabel resource 'label': property color value {reddish} has a problem: \"reddish\" is not a label colour the forge accepts. Use a 6-digit hex colour with a leading # (such as \"#FF0000\") or a CSS colour name (such as \"red\").",
    );
    await stack.removeConfig("labelColor");
  }, OP_TIMEOUT);

  it("an API rejection fails up with the server's message; the next up converges without duplicates", async () => {
    await stack.setConfig({ extraToken: "true", messageText: "e2e window moved" });
    const output = await stack.fails("up");
    expect(output).toContain("ClusterAgentToken token-3 **creating failed**");
    expect(output).toMatch(/POST \/projects\/acme%2Fplatform%2Fdeployer\/cluster_agents\/\d+\/tokens failed: 400 .*An agent can have only two active tokens at a time/);
    await stack.removeConfig("extraToken");

    const up = await stack.up();
    expect(up.changes["create"] ?? 0).toBe(0);
    expect(await forge.census()).toEqual(DECLARED_CENSUS);
    expect((await forge.messages()).map((m) => m["message"])).toEqual(["e2e window moved"]);
    expect(Object.keys((await stack.preview()).changes)).toEqual(["same"]);
  }, OP_TIMEOUT);

  it("destroy leaves nothing in the forge and restores the job token scope", async () => {
    const destroy = await stack.destroy();
    expect(namesWith(destroy, "delete")).toEqual(sorted(ALL));
    expect(await forge.census()).toEqual(EMPTY_CENSUS);
    expect(await forge.scopeEnabled("acme/web")).toBe(false);
    expect(await forge.scopeEnabled("acme/api")).toBe(false);
    expect(await stack.resourceNames()).toEqual([]);
  }, OP_TIMEOUT);
});
