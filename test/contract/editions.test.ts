/**
 * A refusal an edition gap gives names the tier or offering the resource needs (the declaration's
 * `availability`), against an emulator set to that edition.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { dynamicFaceOf } from "../../provider/runtime";
import { startWorld, type World } from "./world";

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => world?.close());
beforeEach(async () => {
  await world.reset();
  world.actAs("max");
});

async function setEdition(tier: string, offering = "self-managed"): Promise<void> {
  const res = await world.emulator.admin("/settings", {
    method: "PUT",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ tier, offering }),
  });
  expect(res.status).toBe(200);
}

const environment = { project: "acme/web", name: "production", deployAccessLevels: [{ accessLevel: 40 }] };

it("creating a ProjectProtectedEnvironment on Free fails with a message naming Premium", async () => {
  await setEdition("free");
  await expect(dynamicFaceOf("ProjectProtectedEnvironment").create(environment)).rejects.toThrow(
    "POST /projects/acme%2Fweb/protected_environments failed: 403 Forbidden (ProjectProtectedEnvironment needs the Premium tier or higher)",
  );
});

it("the same create works on Premium", async () => {
  await setEdition("premium");
  const created = await dynamicFaceOf("ProjectProtectedEnvironment").create(environment);
  expect(created.outs).toMatchObject({ name: "production" });
});

it("a URL configuration on the hosted offering fails with a message naming the offering", async () => {
  const agent = await world
    .as("max")
    .request<{ id: number }>("POST", "/projects/:id/cluster_agents", { id: "acme/web", name: "receptive" });
  await setEdition("ultimate", "hosted");
  await expect(
    dynamicFaceOf("ClusterAgentUrlConfiguration").create({ project: "acme/web", agentId: agent.body.id, url: "grpcs://agent.example" }),
  ).rejects.toThrow(/404 Not Found \(ClusterAgentUrlConfiguration exists only on self-managed instances\)$/);
});
