/**
 * The engine and client under the emulator's injected faults: retries where they are safe,
 * and no duplicate or orphan when a create's answer is lost after the server did the work.
 */
import { expect, it } from "vitest";
import { implementation } from "../../provider/runtime";
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

it("a label create whose answer is lost (504 after the work) is found, not made twice", async () => {
  await fault({ method: "POST", path: "^/groups/[^/]+/labels$", status: 504, after: true, times: 1 });
  const created = await implementation("GroupLabel").create({ group: "acme", name: "lost-answer", color: "red" });
  expect(created.outs).toMatchObject({ name: "lost-answer", labelId: expect.any(Number) });
  expect(await count("/groups/:group/labels", { group: "acme" })).toBe(1);
});

it("a broadcast message create whose connection drops after the work is found by its content", async () => {
  await fault({ method: "POST", path: "^/broadcast_messages$", drop: true, after: true, times: 1 });
  const created = await implementation("BroadcastMessage").create({ message: "dropped answer", startsAt: "2030-01-01T00:00:00Z", endsAt: "2030-01-02T00:00:00Z" });
  expect(created.outs).toMatchObject({ message: "dropped answer", messageId: expect.any(Number) });
  expect(await count("/broadcast_messages", {})).toBe(1);
});

it("a create refused before any work (503) is retried after looking for it, and made once", async () => {
  await fault({ method: "POST", path: "^/projects/[^/]+/cluster_agents$", status: 503, times: 1 });
  // An agent's name is unique in its project: the ambiguous failure is retried once a search finds nothing...
  await implementation("ClusterAgent").create({ project: "acme/web", name: "ambiguous" });
  expect(await count("/projects/:project/cluster_agents", { project: "acme/web" })).toBe(1);
  // ...and a 429 (the server did nothing) is retried without looking.
  await fault({ method: "POST", path: "^/projects/[^/]+/cluster_agents$", status: 429, retryAfter: 0, times: 1 });
  await implementation("ClusterAgent").create({ project: "acme/web", name: "rate-limited" });
  expect(await count("/projects/:project/cluster_agents", { project: "acme/web" })).toBe(2);
  expect((await requests("POST", "cluster_agents")).map((entry) => entry.status)).toEqual([503, 201, 429, 201]);
});

it("an agent create whose answer is lost (502 after the work) is found by its name, not made twice", async () => {
  await fault({ method: "POST", path: "^/projects/[^/]+/cluster_agents$", status: 502, after: true, times: 1 });
  const created = await implementation("ClusterAgent").create({ project: "acme/web", name: "lost-agent" });
  expect(created.outs).toMatchObject({ name: "lost-agent", agentId: expect.any(Number) });
  expect(await count("/projects/:project/cluster_agents", { project: "acme/web" })).toBe(1);
});

async function newAgent(name: string): Promise<number> {
  return (await world().api.request<{ id: number }>("POST", "/projects/:project/cluster_agents", { project: "acme/web", name })).body.id;
}

it("an agent token whose answer is lost is revoked and made again, so its value is known and no token is left over", async () => {
  const agentId = await newAgent("lost-token");
  // A token of the same name made before: not the one the lost answer made, so not touched.
  const earlier = await world().api.request<{ id: number }>("POST", "/projects/:project/cluster_agents/:agentId/tokens", { project: "acme/web", agentId, name: "ci" });
  await fault({ method: "POST", path: "/cluster_agents/\\d+/tokens$", drop: true, after: true, times: 1 });
  const created = await implementation("ClusterAgentToken").create({ project: "acme/web", agentId, name: "ci" });
  expect(created.outs).toMatchObject({ name: "ci", token: expect.any(String), tokenId: expect.any(Number) });
  const active = await world().api.list<{ id: number }>("/projects/:project/cluster_agents/:agentId/tokens", { project: "acme/web", agentId });
  expect(active.map((token) => token.id).sort()).toEqual([earlier.body.id, (created.outs as { tokenId: number }).tokenId].sort());
  expect((await requests("POST", "/tokens")).map((entry) => entry.status)).toEqual([201, 0, 201]); // the setup's token, the lost answer (logged 0), the one made again
  expect((await requests("DELETE", "/tokens/")).length).toBe(1);
});

it("a URL configuration and an error tracking client key whose answers are lost are found among the newer ones", async () => {
  const agentId = await newAgent("lost-url-configuration");
  await fault({ method: "POST", path: "/url_configurations$", status: 502, after: true, times: 1 });
  const configuration = await implementation("ClusterAgentUrlConfiguration").create({ project: "acme/web", agentId, url: "grpcs://agent.example.com:443" });
  expect(configuration.outs).toMatchObject({ urlConfigurationId: expect.any(Number) });
  expect(await count("/projects/:project/cluster_agents/:agentId/url_configurations", { project: "acme/web", agentId })).toBe(1);

  const before = await world().api.request<{ id: number }>("POST", "/projects/:project/error_tracking/client_keys", { project: "acme/web" });
  await fault({ method: "POST", path: "/client_keys$", drop: true, after: true, times: 1 });
  const key = await implementation("ErrorTrackingClientKey").create({ project: "acme/web" });
  expect((key.outs as { keyId: number }).keyId).toBeGreaterThan(before.body.id);
  expect(await count("/projects/:project/error_tracking/client_keys", { project: "acme/web" })).toBe(2);
});

it("reads, updates and deletes ride out 503s, 429s and dropped connections", async () => {
  const ops = implementation("GroupLabel");
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
