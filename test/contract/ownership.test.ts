/**
 * Own only what you made: a create takes over an object only when it can prove that it made it,
 * and after a lost answer nothing proves it. Objects made by hand before the create, and objects another resource of
 * the same run made, are never adopted, changed, deleted or revoked.
 */
import { expect, it } from "vitest";
import { dynamicFaceOf } from "../../provider/runtime";
import { operationsOver } from "../../provider/composition-root";
import type { State } from "../../provider/engine/declaration";
import { useWorld } from "./world";

const world = useWorld();

/** The emulator's admin routes, as its administrator. */
function admin(method: string, route: string, body?: unknown): Promise<Response> {
  return fetch(`${world().emulator.url}/__emulator/${route}`, {
    method,
    headers: { "content-type": "application/json", "private-token": world().user("root").token },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function fault(spec: Record<string, unknown>): Promise<void> {
  const response = await admin("POST", "faults", spec);
  expect(response.status).toBeLessThan(300);
}

async function requests(method: string, pathPart: string): Promise<{ status: number; path: string }[]> {
  const log = (await (await admin("GET", "requests")).json()) as { method: string; path: string; status: number }[];
  return log.filter((entry) => entry.method === method && entry.path.includes(pathPart));
}

const api = () => world().api;
const list = <T = Record<string, unknown>>(path: string, params: Record<string, unknown> = {}) => api().list<T>(path, params);

/** Everything the forge says of a snippet: its record and every file's content. */
async function snippetBytes(id: number): Promise<string> {
  const record = (await api().request<{ files: { path: string }[] }>("GET", "/snippets/:id", { id })).body;
  const files = [];
  for (const file of record.files) {
    files.push((await api().request("GET", "/snippets/:id/files/:ref/:path/raw", { id, ref: "main", path: file.path })).body);
  }
  return JSON.stringify({ record, files });
}

it("a snippet made by hand with the same title survives a create whose connection dropped, and its destroy", async () => {
  const stranger = (
    await api().request<{ id: number }>("POST", "/snippets", {
      title: "team-notes",
      files: [{ file_path: "theirs.md", content: "not yours\n" }],
    })
  ).body.id;
  const before = await snippetBytes(stranger);
  await fault({ method: "POST", path: "^/snippets$", drop: true, times: 1 });
  const ops = dynamicFaceOf("Snippet");
  const inputs = { title: "team-notes", files: [{ filePath: "mine.md", content: "mine\n" }] };
  const created = await ops.create(inputs);
  const mine = (created.outs as State)["snippetId"];
  expect(mine).not.toBe(stranger);
  expect((await list("/snippets")).length).toBe(2);
  await ops.update(created.id, created.outs as State, { ...inputs, files: [{ filePath: "mine.md", content: "changed\n" }] });
  await ops.delete(created.id, created.outs as State);
  expect(await snippetBytes(stranger)).toBe(before);
  expect((await list<{ id: number }>("/snippets")).map((snippet) => snippet.id)).toEqual([stranger]);
});

it("a broadcast message with the same text (a 503 before any work) and an instance cluster with the same name and URL (a dropped connection) are not adopted", async () => {
  const message = (await api().request<{ id: number }>("POST", "/broadcast_messages", { message: "maintenance tonight" })).body;
  await fault({ method: "POST", path: "^/broadcast_messages$", status: 503, times: 1 });
  const ops = dynamicFaceOf("BroadcastMessage");
  const created = await ops.create({ message: "maintenance tonight" });
  expect((created.outs as State)["messageId"]).not.toBe(message.id);
  await ops.delete(created.id, created.outs as State);
  expect((await list<{ id: number }>("/broadcast_messages")).map((record) => record.id)).toEqual([message.id]);

  const cluster = (
    await api().request<{ id: number }>("POST", "/admin/clusters/add", {
      name: "prod",
      platform_vendor_attributes: { api_url: "https://k8s.example", token: "theirs" },
    })
  ).body;
  await fault({ method: "POST", path: "^/admin/clusters/add$", drop: true, times: 1 });
  const clusters = dynamicFaceOf("InstanceCluster");
  const mine = await clusters.create({ name: "prod", platformVendorAttributes: { apiUrl: "https://k8s.example", token: "mine" } });
  expect((mine.outs as State)["clusterId"]).not.toBe(cluster.id);
  await clusters.delete(mine.id, mine.outs as State);
  expect((await list<{ id: number }>("/admin/clusters")).map((record) => record.id)).toEqual([cluster.id]);
});

it("objects of a unique identity there before the create are the forge's conflict: nothing is sent, the error names the import id", async () => {
  const label = (await api().request<{ id: number }>("POST", "/groups/:group/labels", { group: "acme", name: "bug", color: "#ff0000" }))
    .body;
  await expect(dynamicFaceOf("GroupLabel").create({ group: "acme", name: "bug", color: "blue" })).rejects.toThrow(
    new RegExp(`"acme:${label.id}" already exists on the forge, and this resource did not make it.*import: "acme:${label.id}"`),
  );
  const agent = (
    await api().request<{ id: number }>("POST", "/projects/:project/cluster_agents", { project: "acme/web", name: "production" })
  ).body;
  await expect(dynamicFaceOf("ClusterAgent").create({ project: "acme/web", name: "production" })).rejects.toThrow(
    `"acme/web:${agent.id}" already exists`,
  );
  const nomad = world().user("nomad").id;
  await api().request("POST", "/projects/:project/members", { project: "acme/web", user_id: nomad, access_level: 20 });
  await expect(dynamicFaceOf("ProjectMember").create({ project: "acme/web", user: "nomad", accessLevel: 40 })).rejects.toThrow(
    `"acme/web:${nomad}" already exists`,
  );
  await api().request("POST", "/projects/:project/protected_environments", {
    project: "acme/web",
    name: "production",
    deploy_access_levels: [{ access_level: 40 }],
  });
  await expect(
    dynamicFaceOf("ProjectProtectedEnvironment").create({
      project: "acme/web",
      name: "production",
      deployAccessLevels: [{ accessLevel: 40 }],
    }),
  ).rejects.toThrow('"acme/web:production" already exists');
  // None of them was written to: no create was sent, the member keeps its role.
  expect(await requests("POST", "/labels")).toHaveLength(1);
  expect(await requests("POST", "/cluster_agents")).toHaveLength(1);
  expect(
    (await api().request<{ access_level: number }>("GET", "/projects/:project/members/:id", { project: "acme/web", id: nomad })).body
      .access_level,
  ).toBe(20);
});

it("two tokens of one name on one agent, created at once with one answer lost: the other ends with its token, the lost one is reported and nothing is revoked", async () => {
  const agentId = (
    await api().request<{ id: number }>("POST", "/projects/:project/cluster_agents", { project: "acme/web", name: "ci-agent" })
  ).body.id;
  await fault({ method: "POST", path: "/cluster_agents/\\d+/tokens$", status: 502, after: true, latencyMs: 300, times: 1 });
  const ops = dynamicFaceOf("ClusterAgentToken");
  const inputs = { project: "acme/web", agentId, name: "ci" };
  const outcomes = await Promise.allSettled([ops.create(inputs), ops.create(inputs)]);
  const made = outcomes.flatMap((outcome) => (outcome.status === "fulfilled" ? [(outcome.value.outs as State)["tokenId"] as number] : []));
  const failed = outcomes.flatMap((outcome) => (outcome.status === "rejected" ? [outcome.reason as Error & { candidates: string[] }] : []));
  expect(made).toHaveLength(1);
  expect(failed.map((error) => error.name)).toEqual(["UnprovenCreateError"]);
  const active = await list<{ id: number }>("/projects/:project/cluster_agents/:agentId/tokens", { project: "acme/web", agentId });
  expect(active).toHaveLength(2);
  // The token the lost answer made is named, never the other resource's; nothing is revoked.
  expect(failed[0]!.candidates).toEqual(active.filter((token) => token.id !== made[0]).map((token) => `acme/web:${agentId}:${token.id}`));
  expect(await requests("DELETE", "/tokens/")).toHaveLength(0);
});

it("two client keys of one project, created at once with one answer lost: the key the lost answer made is named, nothing deleted", async () => {
  await fault({ method: "POST", path: "/client_keys$", status: 502, after: true, latencyMs: 300, times: 1 });
  const ops = dynamicFaceOf("ErrorTrackingClientKey");
  const outcomes = await Promise.allSettled([ops.create({ project: "acme/web" }), ops.create({ project: "acme/web" })]);
  expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected"]);
  expect(await list("/projects/:project/error_tracking/client_keys", { project: "acme/web" })).toHaveLength(2);
  expect(await requests("DELETE", "/client_keys")).toHaveLength(0);
});

it("when something else makes a matching object while an answer is lost, recovery takes none, deletes none, and names the candidates", async () => {
  await fault({ method: "POST", path: "/client_keys$", status: 502, after: true, latencyMs: 800, times: 1 });
  const pending = dynamicFaceOf("ErrorTrackingClientKey").create({ project: "acme/web" });
  const failed = expect(pending).rejects.toThrow(
    /2 objects that could be this resource's.*"acme\/web:\d+", "acme\/web:\d+".*Nothing was adopted, revoked or deleted/,
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  // Made by someone else while the create's answer is on its way (and lost).
  await api().request("POST", "/projects/:project/error_tracking/client_keys", { project: "acme/web" });
  await failed;
  expect(await list("/projects/:project/error_tracking/client_keys", { project: "acme/web" })).toHaveLength(2);
  expect(await requests("DELETE", "/client_keys")).toHaveLength(0);
  // After the user decides, a plain re-run creates (or the user imports one of the two).
  const again = await dynamicFaceOf("ErrorTrackingClientKey").create({ project: "acme/web" });
  expect((again.outs as State)["keyId"]).toEqual(expect.any(Number));
});

/** Every kind with a unique identity: an object of that identity made by hand first is refused before any write, and left as it was. */
const identityKinds: Array<{ kind: string; byHand: () => Promise<unknown>; inputs: () => State; read: () => Promise<unknown> }> = [
  {
    kind: "GroupLabel",
    byHand: () => api().request("POST", "/groups/:group/labels", { group: "acme", name: "hand", color: "#00ff00", description: "theirs" }),
    inputs: () => ({ group: "acme", name: "hand", color: "red" }),
    read: () => list("/groups/:group/labels", { group: "acme" }),
  },
  {
    kind: "ClusterAgent",
    byHand: () => api().request("POST", "/projects/:project/cluster_agents", { project: "acme/web", name: "hand" }),
    inputs: () => ({ project: "acme/web", name: "hand" }),
    read: () => list("/projects/:project/cluster_agents", { project: "acme/web" }),
  },
  {
    kind: "FeatureFlagUserList",
    byHand: () =>
      api().request("POST", "/projects/:project/feature_flags_user_lists", { project: "acme/web", name: "hand", user_xids: "theirs" }),
    inputs: () => ({ project: "acme/web", name: "hand", userXids: ["mine"] }),
    read: () => list("/projects/:project/feature_flags_user_lists", { project: "acme/web" }),
  },
  {
    kind: "GeoSite",
    byHand: () => api().request("POST", "/geo_sites", { name: "Hand", url: "https://theirs.example.com/" }),
    inputs: () => ({ name: "hand", url: "https://mine.example.com/" }),
    read: () => list("/geo_sites"),
  },
  {
    kind: "ProjectProtectedEnvironment",
    byHand: () =>
      api().request("POST", "/projects/:project/protected_environments", {
        project: "acme/web",
        name: "hand",
        deploy_access_levels: [{ access_level: 30 }],
      }),
    inputs: () => ({ project: "acme/web", name: "hand", deployAccessLevels: [{ accessLevel: 40 }] }),
    read: () =>
      api()
        .request("GET", "/projects/:project/protected_environments/:name", { project: "acme/web", name: "hand" })
        .then((response) => response.body),
  },
  {
    kind: "GroupProtectedEnvironment",
    byHand: () =>
      api().request("POST", "/groups/:group/protected_environments", {
        group: "acme",
        name: "staging",
        deploy_access_levels: [{ access_level: 30 }],
      }),
    inputs: () => ({ group: "acme", name: "staging", deployAccessLevels: [{ accessLevel: 40 }] }),
    read: () =>
      api()
        .request("GET", "/groups/:group/protected_environments/:name", { group: "acme", name: "staging" })
        .then((response) => response.body),
  },
  {
    kind: "ProjectMember",
    byHand: () =>
      api().request("POST", "/projects/:project/members", { project: "acme/web", user_id: world().user("nomad").id, access_level: 10 }),
    inputs: () => ({ project: "acme/web", user: "nomad", accessLevel: 30 }),
    read: () => list("/projects/:project/members", { project: "acme/web" }),
  },
  {
    kind: "VirtualRegistryCleanupPolicy",
    byHand: () => api().request("POST", "/groups/:group/-/virtual_registries/cleanup/policy", { group: "acme", cadence: 7 }),
    inputs: () => ({ group: "acme", cadence: 14, enabled: true }),
    read: () =>
      api()
        .request("GET", "/groups/:group/-/virtual_registries/cleanup/policy", { group: "acme" })
        .then((response) => response.body),
  },
  {
    kind: "JobTokenScopeProjectAllowlistEntry",
    byHand: () =>
      api().request("POST", "/projects/:project/job_token_scope/allowlist", {
        project: "acme/web",
        target_project_id: world().projectId("acme/api"),
      }),
    inputs: () => ({ project: "acme/web", targetProjectId: world().projectId("acme/api") }),
    read: () => list("/projects/:project/job_token_scope/allowlist", { project: "acme/web" }),
  },
];

for (const row of identityKinds) {
  it(`${row.kind}: one made by hand before the create is refused, named by its import id, and left byte for byte`, async () => {
    await row.byHand();
    const before = JSON.stringify(await row.read());
    const writes = (await requests("POST", "")).length + (await requests("PUT", "")).length + (await requests("DELETE", "")).length;
    // A run that starts after the object was made: a provider process of its own (within one
    // process, creates share a listing for a few seconds, and one made since costs a refused POST).
    await expect(operationsOver(row.kind, api()).create(row.inputs())).rejects.toThrow(
      /already exists on the forge, and this resource did not make it.*\{ import: "[^"]+" \}/,
    );
    expect((await requests("POST", "")).length + (await requests("PUT", "")).length + (await requests("DELETE", "")).length).toBe(writes);
    expect(JSON.stringify(await row.read())).toBe(before);
  });
}

it("ClusterAgentToken and ClusterAgentUrlConfiguration: objects of the agent made by hand before a create whose connection dropped are not taken", async () => {
  const agentId = (
    await api().request<{ id: number }>("POST", "/projects/:project/cluster_agents", { project: "acme/web", name: "hand-agent" })
  ).body.id;
  const theirs = (
    await api().request<{ id: number }>("POST", "/projects/:project/cluster_agents/:agentId/tokens", {
      project: "acme/web",
      agentId,
      name: "ci",
    })
  ).body.id;
  await fault({ method: "POST", path: "/cluster_agents/\\d+/tokens$", drop: true, times: 1 });
  const token = await dynamicFaceOf("ClusterAgentToken").create({ project: "acme/web", agentId, name: "ci" });
  expect((token.outs as State)["tokenId"]).not.toBe(theirs);
  await dynamicFaceOf("ClusterAgentToken").delete(token.id, token.outs as State);
  expect(
    (await list<{ id: number }>("/projects/:project/cluster_agents/:agentId/tokens", { project: "acme/web", agentId })).map(
      (record) => record.id,
    ),
  ).toEqual([theirs]);

  // One configuration per agent: the forge refuses the create, and the one made by hand stays.
  await api().request("POST", "/projects/:project/cluster_agents/:agentId/url_configurations", {
    project: "acme/web",
    agentId,
    url: "grpcs://theirs.example.com:443",
  });
  const before = JSON.stringify(
    await list("/projects/:project/cluster_agents/:agentId/url_configurations", { project: "acme/web", agentId }),
  );
  await fault({ method: "POST", path: "/url_configurations$", drop: true, times: 1 });
  await expect(
    dynamicFaceOf("ClusterAgentUrlConfiguration").create({ project: "acme/web", agentId, url: "grpcs://mine.example.com:443" }),
  ).rejects.toThrow(/URL configuration already exists for this agent/);
  expect(
    JSON.stringify(await list("/projects/:project/cluster_agents/:agentId/url_configurations", { project: "acme/web", agentId })),
  ).toBe(before);
});
