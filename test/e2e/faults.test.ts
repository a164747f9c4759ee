/**
 * The soak run's fault case, small (`npm run soak -- faults` runs it with 200): an `up` of
 * resources of four types while 20% of the API requests fail (answers lost after the work,
 * dropped connections, 429, 503; seeded), through the real Pulumi CLI. Under the ownership rule
 * the `up` sends nothing twice and takes nothing on inference: a create whose answer was lost
 * after the work fails naming its object's import id. Importing what the errors name (as they
 * say) converges: the forge holds each resource once and nothing the state does not, and the
 * next `up` is a no-op.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { benchRecordsInForge, faultMix, MIX } from "../../bench/stacks";
import { namesWith, PulumiFailure, startE2eWorld, type E2eWorld, type ListedResource, type TestStack } from "./harness";

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

it("with 20% of requests failing, sends nothing twice and adopts nothing unproven; importing what the errors name converges, then a no-op", async () => {
  const since = (await world.requests()).at(-1)?.seq ?? 0;
  for (const fault of faultMix(0.2, 42)) {
    const response = await world.emulator.admin("/faults", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(fault) });
    expect(response.status).toBe(201);
  }
  let output = "";
  let created: string[] = [];
  try {
    const up = await stack.up();
    created = namesWith(up, "create");
  } catch (error) {
    if (!(error instanceof PulumiFailure)) throw error;
    output = error.output;
  }
  const failed = (await world.requests(since)).filter((entry) => entry.status === 0 || entry.status === 429 || entry.status >= 500);
  await world.emulator.admin("/faults", { method: "DELETE" });
  // The faults did fire (else this shows nothing): with 24 creates, a few at least.
  expect(failed.length).toBeGreaterThan(0);

  // Each create whose answer was lost after the work names the one object it may have made.
  const named = new Map<string, string>();
  for (const match of output.matchAll(/\(([A-Za-z]+-\d+)\):\s*\n?\s*error: .*?the answer to the create was lost.*?\(import id "([^"]+)"\)/g)) named.set(match[1]!, match[2]!);
  const inForge = await benchRecordsInForge(world.api);
  expect(new Set(inForge).size).toBe(inForge.length); // nothing made twice
  const held = (await stack.resources()).length;
  expect(inForge).toHaveLength(held + named.size); // nothing on the forge that neither the state holds nor an error names
  if (output === "") expect(created).toEqual(listed().map((resource) => resource.name).sort());

  // The user's decision, as the errors advise: import each named object.
  await stack.declare(listed().map((resource) => (named.has(resource.name) ? { ...resource, options: { import: named.get(resource.name)! } } : resource)));
  await stack.up();
  const inState = (await stack.resources())
    .map((r) => `${r.type} ${r.type === "BroadcastMessage" ? String(r.outputs["message"]).replace(" ", "-") : String(r.outputs["name"])}`)
    .sort();
  expect(await benchRecordsInForge(world.api)).toEqual(inState);
  expect(inState).toHaveLength(N);

  const again = await stack.up();
  expect(Object.keys(again.changes)).toEqual(["same"]);
  expect(namesWith(again, "same")).toHaveLength(N);
}, OP_TIMEOUT);
