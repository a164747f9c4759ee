import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, expect, it } from "vitest";
import * as lookups from "../../provider/generated/lookups";
import { startWorld, type World } from "./world";

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => world?.close());

it("reads a group by path and by id", async () => {
  const byPath = await lookups.getGroup({ group: "acme/platform" });
  expect(byPath).toMatchObject({ fullPath: "acme/platform", id: world.groupId("acme/platform") });
  expect(await lookups.getGroup({ group: world.groupId("acme") })).toMatchObject({ fullPath: "acme" });
});

it("reads a group with its projects by default, without them on request, and custom attributes for an administrator", async () => {
  const full = await lookups.getGroup({ group: "acme/platform" });
  expect((full["projects"] as { pathWithNamespace: string }[]).map((project) => project.pathWithNamespace)).toEqual([
    "acme/platform/deployer",
  ]);
  expect((full["sharedProjects"] as { pathWithNamespace: string }[]).map((project) => project.pathWithNamespace)).toEqual(["acme/web"]);
  expect(full).toMatchObject({ repositoryStorage: "default", runnersToken: expect.stringMatching(/^GR1348941/) });
  const bare = await lookups.getGroup({ group: "acme", withProjects: false, withCustomAttributes: true });
  expect(bare).not.toHaveProperty("projects");
  expect(bare["customAttributes"]).toEqual([]);
});

it("lists and gets group labels, with filters sent as snake_case query parameters", async () => {
  for (const name of ["alpha", "beta", "gamma"]) {
    await world.api.request("POST", "/groups/:group/labels", { group: "acme", name, color: "#112233" });
  }
  const all = await lookups.listGroupLabels({ group: "acme/platform" });
  expect(all.map((label) => label["name"]).sort()).toEqual(["alpha", "beta", "gamma"]);
  const own = await lookups.listGroupLabels({ group: "acme/platform", includeAncestorGroups: false });
  expect(own).toEqual([]);
  expect(await lookups.getGroupLabel({ group: "acme", labelId: "beta" })).toMatchObject({ name: "beta", color: "#112233" });
});

it("lists every page of a listing (more than one page of 100)", async () => {
  for (let index = 0; index < 105; index += 1) {
    await world.api.request("POST", "/broadcast_messages", { message: `message ${index}` });
  }
  expect(await lookups.listBroadcastMessages({})).toHaveLength(105);
});

it("lists agents, their tokens and URL configurations, allowlists and protected environments", async () => {
  const agent = await world.api.request<{ id: number }>("POST", "/projects/:project/cluster_agents", {
    project: "acme/web",
    name: "listed",
  });
  await world.api.request("POST", "/projects/:project/cluster_agents/:agentId/tokens", {
    project: "acme/web",
    agentId: agent.body.id,
    name: "t",
  });
  await world.api.request("POST", "/projects/:project/cluster_agents/:agentId/url_configurations", {
    project: "acme/web",
    agentId: agent.body.id,
    url: "grpcs://listed.example.com:443",
    client_cert: "-----BEGIN CERTIFICATE-----\nC\n-----END CERTIFICATE-----",
    client_key: "-----BEGIN PRIVATE KEY-----\nK\n-----END PRIVATE KEY-----",
  });
  await world.api.request("POST", "/projects/:project/job_token_scope/allowlist", {
    project: "acme/web",
    target_project_id: world.projectId("acme/api"),
  });
  await world.api.request("POST", "/projects/:project/job_token_scope/groups_allowlist", {
    project: "acme/web",
    target_group_id: world.groupId("acme/platform"),
  });
  await world.api.request("POST", "/projects/:project/protected_environments", {
    project: "acme/web",
    name: "production",
    deploy_access_levels: [{ access_level: 40 }],
  });
  await world.api.request("POST", "/groups/:group/protected_environments", {
    group: "acme",
    name: "staging",
    deploy_access_levels: [{ access_level: 40 }],
  });

  expect(await lookups.listClusterAgents({ project: "acme/web" })).toEqual([expect.objectContaining({ name: "listed" })]);
  const tokens = await lookups.listClusterAgentTokens({ project: "acme/web", agentId: agent.body.id });
  expect(tokens).toEqual([expect.objectContaining({ name: "t", status: "active" })]);
  expect(tokens[0]).not.toHaveProperty("token");
  const configurations = await lookups.listClusterAgentUrlConfigurations({ project: "acme/web", agentId: agent.body.id });
  expect(configurations).toEqual([expect.objectContaining({ url: "grpcs://listed.example.com:443" })]);
  expect(configurations[0]).not.toHaveProperty("clientKey");
  // The allowed projects only: the source project is no entry of its own allowlist.
  const allowed = await lookups.listJobTokenScopeProjectAllowlist({ project: "acme/web" });
  expect(allowed.map((project) => project["pathWithNamespace"])).toEqual(["acme/api"]);
  expect(await lookups.listJobTokenScopeGroupAllowlist({ project: "acme/web" })).toEqual([
    expect.objectContaining({ id: world.groupId("acme/platform"), name: "Platform" }),
  ]);
  expect(await lookups.listProjectProtectedEnvironments({ project: "acme/web" })).toEqual([
    expect.objectContaining({ name: "production" }),
  ]);
  expect(await lookups.listGroupProtectedEnvironments({ group: "acme" })).toEqual([expect.objectContaining({ name: "staging" })]);
});

it("rejects bad arguments before any request, naming the argument", async () => {
  const before = await world.requestCount();
  await expect(lookups.getGroup({ group: "" })).rejects.toThrow("getGroup: invalid arguments: group:");
  // A user's mistake, not the library's: Pulumi prints a RunError's message without a stack trace.
  await expect(lookups.getGroup({ group: "" })).rejects.toBeInstanceOf(pulumi.RunError);
  expect(await world.requestCount()).toBe(before);
});

it("has an output form that takes inputs", async () => {
  const { output } = await import("@pulumi/pulumi");
  const group = lookups.getGroup.output({ group: output("acme") });
  expect(await new Promise((resolve) => group.apply(resolve))).toMatchObject({ fullPath: "acme" });
});

it("lookups mark secret what the resource marks: in a program, .output() of client keys, URL configurations and instance clusters is a secret", async () => {
  await world.api.request("POST", "/projects/:project/error_tracking/client_keys", { project: "acme/web" });
  const keys = lookups.listErrorTrackingClientKeys.output({ project: "acme/web" });
  expect(await pulumi.isSecret(keys)).toBe(true);
  expect(await pulumi.isSecret(lookups.listClusterAgentUrlConfigurations.output({ project: "acme/web", agentId: 1 }))).toBe(true);
  expect(await pulumi.isSecret(lookups.listInstanceClusters.output({}))).toBe(true);
  // A listing without secrets stays plain.
  expect(await pulumi.isSecret(lookups.listClusterAgents.output({ project: "acme/web" }))).toBe(false);
});
