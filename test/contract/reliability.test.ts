/**
 * The engine and client under the emulator's injected faults: retries where they are safe, and
 * when a create's answer is lost after the server did the work, no duplicate, no orphan and no
 * adoption on inference (the error names the object; `import` takes it).
 */
import { expect, it } from "vitest";
import { dynamicFaceOf } from "../../provider/runtime";
import { useWorld } from "./world";

const world = useWorld();

async function fault(spec: Record<string, unknown>): Promise<void> {
  const response = await world().emulator.admin("/faults", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(spec),
  });
  expect(response.status).toBeLessThan(300);
}

async function requests(method: string, pathPart: string): Promise<{ status: number }[]> {
  const log = (await (await world().emulator.admin("/requests")).json()) as { method: string; path: string; status: number }[];
  return log.filter((entry) => entry.method === method && entry.path.includes(pathPart));
}

const count = async (path: string, params: Record<string, unknown>) => (await world().api.list(path, params)).length;

/** A create whose answer is lost after the forge did the work, per kind: the fault, the inputs, the objects to count. */
const lostAfterWork: Array<{
  kind: string;
  fault: Record<string, unknown>;
  inputs: () => Promise<Record<string, unknown>>;
  listed: (inputs: Record<string, unknown>) => Promise<unknown[]>;
}> = [
  {
    kind: "GroupLabel",
    fault: { path: "^/groups/[^/]+/labels$", status: 504 },
    inputs: async () => ({ group: "acme", name: "lost-answer", color: "red" }),
    listed: () => world().api.list("/groups/:group/labels", { group: "acme" }),
  },
  {
    kind: "ClusterAgent",
    fault: { path: "^/projects/[^/]+/cluster_agents$", status: 502 },
    inputs: async () => ({ project: "acme/web", name: "lost-agent" }),
    listed: () => world().api.list("/projects/:project/cluster_agents", { project: "acme/web" }),
  },
  {
    kind: "BroadcastMessage",
    fault: { path: "^/broadcast_messages$", drop: true },
    inputs: async () => ({ message: "dropped answer", startsAt: "2030-01-01T00:00:00Z", endsAt: "2030-01-02T00:00:00Z" }),
    listed: () => world().api.list("/broadcast_messages"),
  },
  {
    kind: "ClusterAgentToken",
    fault: { path: "/cluster_agents/\\d+/tokens$", drop: true },
    inputs: async () => ({ project: "acme/web", agentId: await newAgent("lost-token"), name: "ci" }),
    listed: (inputs) => world().api.list("/projects/:project/cluster_agents/:agentId/tokens", inputs),
  },
  {
    kind: "ClusterAgentUrlConfiguration",
    fault: { path: "/url_configurations$", status: 502 },
    inputs: async () => ({ project: "acme/web", agentId: await newAgent("lost-url-configuration"), url: "grpcs://agent.example.com:443" }),
    listed: (inputs) => world().api.list("/projects/:project/cluster_agents/:agentId/url_configurations", inputs),
  },
  {
    kind: "ErrorTrackingClientKey",
    fault: { path: "/client_keys$", drop: true },
    inputs: async () => ({ project: "acme/web" }),
    listed: () => world().api.list("/projects/:project/error_tracking/client_keys", { project: "acme/web" }),
  },
  {
    kind: "ProjectMember",
    fault: { path: "^/projects/[^/]+/members$", drop: true },
    inputs: async () => ({ project: "acme/web", user: "nomad", accessLevel: 30 }),
    listed: () => world().api.list("/projects/:project/members", { project: "acme/web" }),
  },
];

for (const row of lostAfterWork) {
  it(`${row.kind}: a create whose answer is lost after the work is made once, never adopted: the error names it, and import takes it`, async () => {
    const inputs = await row.inputs();
    const before = (await row.listed(inputs)).length;
    await fault({ method: "POST", ...row.fault, after: true, times: 1 });
    const ops = dynamicFaceOf(row.kind);
    const error = (await ops.create(inputs).catch((caught: unknown) => caught)) as Error & { candidates?: string[] };
    expect(error.name, error.message).toBe("UnprovenCreateError");
    expect(error.candidates).toHaveLength(1);
    expect(await row.listed(inputs)).toHaveLength(before + 1);
    expect((await requests("POST", "")).filter((entry) => entry.status === 201).length).toBe(
      row.kind === "ClusterAgentToken" || row.kind === "ClusterAgentUrlConfiguration" ? 1 : 0,
    ); // the agent made by hand; nothing sent twice
    expect((await requests("DELETE", "")).length).toBe(0);
    if (row.kind === "ClusterAgentToken") {
      expect(error.message).toMatch(/secret value was only in the lost answer.*revoke it/);
      return;
    }
    const imported = await ops.create({ ...inputs, importId: error.candidates![0] });
    expect(imported.id).toBe(error.candidates![0]);
  });
}

it("a create refused before any work (503) is sent again once a look finds nothing, and made once", async () => {
  await fault({ method: "POST", path: "^/projects/[^/]+/cluster_agents$", status: 503, times: 1 });
  await dynamicFaceOf("ClusterAgent").create({ project: "acme/web", name: "ambiguous" });
  expect(await count("/projects/:project/cluster_agents", { project: "acme/web" })).toBe(1);
  // A 429 (the server did nothing) is retried by the client itself.
  await fault({ method: "POST", path: "^/projects/[^/]+/cluster_agents$", status: 429, retryAfter: 0, times: 1 });
  await dynamicFaceOf("ClusterAgent").create({ project: "acme/web", name: "rate-limited" });
  expect(await count("/projects/:project/cluster_agents", { project: "acme/web" })).toBe(2);
  expect((await requests("POST", "cluster_agents")).map((entry) => entry.status)).toEqual([503, 201, 429, 201]);
});

async function newAgent(name: string): Promise<number> {
  return (await world().api.request<{ id: number }>("POST", "/projects/:project/cluster_agents", { project: "acme/web", name })).body.id;
}

it("reads, updates and deletes ride out 503s, 429s and dropped connections", async () => {
  const ops = dynamicFaceOf("GroupLabel");
  const { id, outs } = await ops.create({ group: "acme", name: "sturdy", color: "blue" });
  await fault({ method: "GET", path: "/labels/", status: 429, retryAfter: 0, times: 1 });
  expect((await ops.read(id, outs as Record<string, unknown>)).id).toBe(id);
  await fault({ method: "PUT", path: "/labels/", status: 503, times: 2 });
  const updated = await ops.update(id, outs as Record<string, unknown>, { group: "acme", name: "sturdy", color: "green" });
  expect(updated.outs).toMatchObject({ color: "green" });
  await fault({ method: "DELETE", path: "/labels/", drop: true, times: 1 });
  await ops.delete(id, updated.outs as Record<string, unknown>);
  expect(await count("/groups/:group/labels", { group: "acme" })).toBe(0);
  expect((await requests("PUT", "/labels/")).map((entry) => entry.status)).toEqual([503, 503, 200]);
});
