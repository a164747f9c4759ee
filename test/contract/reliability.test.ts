/**
 * The engine and client under the emulator's injected faults: retries where they are safe,
 * and no duplicate or orphan when a create's answer is lost after the server did the work.
 */
import { expect, it } from "vitest";
import { implementation } from "../../provider/engine/runtime";
import { useWorld } from "./world";

const world = useWorld();

async function fault(spec: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${world().emulator.url}/__emulator/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(spec),
  });
  expect(response.status).toBeLessThan(300);
}

async function requests(method: string, pathPart: string): Promise<{ status: number }[]> {
  const log = (await (await fetch(`${world().emulator.url}/__emulator/requests`)).json()) as { method: string; path: string; status: number }[];
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
