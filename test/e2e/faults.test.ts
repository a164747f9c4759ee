/**
 * The soak run's fault case, small (`npm run soak -- faults` runs it with 200): an `up` of
 * resources of four types while 20% of the API requests fail (answers lost after the work,
 * dropped connections, 429, 503; seeded), through the real Pulumi CLI. One `up` converges,
 * the forge holds each resource once and nothing the state does not, the next `up` is a no-op.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { benchRecordsInForge, faultMix, MIX } from "../../bench/stacks";
import { namesWith, startE2eWorld, type E2eWorld, type ListedResource, type TestStack } from "./harness";

const N = 24;
const OP_TIMEOUT = 300_000;
let world: E2eWorld;
let stack: TestStack;

function listed(): ListedResource[] {
  return Array.from({ length: N }, (_, i) => {
    const type = MIX[i % MIX.length]!;
    const inputs: Record<string, Record<string, unknown>> = {
      GroupLabel: { group: "acme", name: `bench-${i}`, color: "#aa0000" },
      BroadcastMessage: { message: `bench ${i}` },
      ClusterAgent: { project: "acme/web", name: `bench-${i}` },
      FeatureFlagUserList: { project: "acme/web", name: `bench-${i}`, userXids: ["user-1"] },
    };
    return { type, name: `${type}-${i}`, inputs: inputs[type]! };
  });
}

beforeAll(async () => {
  world = await startE2eWorld();
  stack = await world.stack("resources", "faults");
  await stack.declare(listed());
}, OP_TIMEOUT);

afterAll(async () => {
  await world?.close();
});

it("converges in one up with 20% of requests failing: no duplicate, no orphan, then a no-op", async () => {
  const since = (await world.requests()).at(-1)?.seq ?? 0;
  for (const fault of faultMix(0.2, 42)) {
    const response = await world.emulator.admin("/faults", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(fault) });
    expect(response.status).toBe(201);
  }
  const up = await stack.up();
  const failed = (await world.requests(since)).filter((entry) => entry.status === 0 || entry.status === 429 || entry.status >= 500);
  await world.emulator.admin("/faults", { method: "DELETE" });

  expect(namesWith(up, "create")).toEqual(listed().map((resource) => resource.name).sort());
  // The faults did fire (else this shows nothing): with 24 creates, a few at least.
  expect(failed.length).toBeGreaterThan(0);
  const inForge = await benchRecordsInForge(world.api);
  expect(new Set(inForge).size).toBe(inForge.length);
  const inState = (await stack.resources())
    .map((r) => `${r.type} ${r.type === "BroadcastMessage" ? String(r.outputs["message"]).replace(" ", "-") : String(r.outputs["name"])}`)
    .sort();
  expect(inForge).toEqual(inState);
  expect(inState).toHaveLength(N);

  const again = await stack.up();
  expect(Object.keys(again.changes)).toEqual(["same"]);
  expect(namesWith(again, "same")).toHaveLength(N);
}, OP_TIMEOUT);
