/**
 * Ownership under races: other pipelines, stacks and people write the same forge while
 * a create's answer is lost or slow. In each case the object someone else made survives byte for
 * byte, nothing is adopted or revoked on inference, and the error names the candidates.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { expect, it } from "vitest";
import { decide, type RecoveryPlan } from "../../cli/recover";
import { pluginToken } from "../../provider/type-tokens";
import { dynamicFaceOf } from "../../provider/runtime";
import { operations } from "../../provider/composition-root";
import { pluginProvider } from "../../provider/plugin/loaded";
import type { State } from "../../provider/engine/declaration";
import { useWorld } from "./world";

const world = useWorld();
const api = () => world().api;

async function fault(spec: Record<string, unknown>): Promise<void> {
  const response = await world().emulator.admin("/faults", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(spec),
  });
  expect(response.status).toBeLessThan(300);
}

/** Requests that change the forge, as the emulator logged them. */
async function writes(): Promise<{ method: string; path: string; status: number }[]> {
  const log = (await (await world().emulator.admin("/requests")).json()) as { method: string; path: string; status: number }[];
  return log.filter((entry) => entry.method !== "GET");
}

/** Whether the emulator has answered a GET of this path. */
async function looked(path: string): Promise<boolean> {
  const log = (await (await world().emulator.admin("/requests")).json()) as { method: string; path: string }[];
  return log.some((entry) => entry.method === "GET" && entry.path.endsWith(path));
}

const tokensOf = (agentId: number) =>
  api().list<{ id: number; name: string; status: string }>("/projects/:project/cluster_agents/:agentId/tokens", {
    project: "acme/web",
    agentId,
  });
const newAgent = async (name: string) =>
  (await api().request<{ id: number }>("POST", "/projects/:project/cluster_agents", { project: "acme/web", name })).body.id;

/** Runs one create in a second provider process, as another stack's `pulumi up` would. */
function createElsewhere(
  type: string,
  inputs: State,
  env: Record<string, string>,
): Promise<{ ok: boolean; name?: string; candidates?: string[] }> {
  const script = join(__dirname, "..", "..", "dist", "test", "contract", "support", "create-elsewhere.js");
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [script, JSON.stringify({ type, inputs })], { env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout.trim().split("\n").pop()!) as { ok: boolean; name?: string; candidates?: string[] });
    });
  });
}

/** A create on each face: the dynamic classes' operations, and the plugin's interface addressed by URN. */
const faces: Array<{ face: string; create: (type: string, inputs: State) => Promise<unknown> }> = [
  { face: "the dynamic classes", create: (type, inputs) => dynamicFaceOf(type).create(inputs) },
  {
    face: "the plugin",
    create: async (type, inputs) => {
      const plugin = pluginProvider({ version: "0.1.0", schema: "{}" });
      const urn = `urn:pulumi:test::forge::${pluginToken(type)}::race`;
      const checked = await plugin.check!(urn, {}, inputs);
      return plugin.create!(urn, checked.inputs);
    },
  },
];

for (const { face, create } of faces) {
  it(`${face}: a label create answered 503 before any work, while a person makes the same label, fails naming the person's label, which survives byte for byte`, async () => {
    await fault({ method: "POST", path: "^/groups/[^/]+/labels$", status: 503, latencyMs: 600, times: 1 });
    const creating = create("GroupLabel", { group: "acme", name: "race", color: "red" }).catch((error: unknown) => error);
    // Once the provider's look has found nothing, its POST is on its way (and waits at the forge).
    const started = Date.now();
    while (!(await looked("/groups/acme/labels")) && Date.now() - started < 20_000) await sleep(25);
    await sleep(100);
    const theirs = (
      await world().as("max").request<{ id: number }>("POST", "/groups/:group/labels", {
        group: "acme",
        name: "race",
        color: "#00ff00",
        description: "mine, by hand",
      })
    ).body;
    const before = JSON.stringify((await api().request("GET", "/groups/:group/labels/:id", { group: "acme", id: theirs.id })).body);
    const error = (await creating) as Error & { candidates?: string[] };
    expect(error.message).toMatch(/the answer to the create was lost.*Nothing was adopted, revoked or deleted/);
    expect(error.message).toContain(`"acme:${theirs.id}"`);
    // The next up refuses it before sending anything, and names the same import id.
    await expect(create("GroupLabel", { group: "acme", name: "race", color: "red" })).rejects.toThrow(`"acme:${theirs.id}" already exists`);
    expect(JSON.stringify((await api().request("GET", "/groups/:group/labels/:id", { group: "acme", id: theirs.id })).body)).toBe(before);
    expect((await writes()).map((entry) => `${entry.method} ${entry.status}`).sort()).toEqual(["POST 201", "POST 503"]);
  });
}

it("two provider processes, a forge too slow for the first: the second stack's token of the same name is never revoked", async () => {
  const agentId = await newAgent("slow-forge");
  // The first process's POST takes 2.5 s; its client gives up after 0.8 s, and the forge still does the work.
  await fault({ method: "POST", path: "/cluster_agents/\\d+/tokens$", latencyMs: 2500, times: 1 });
  const inputs = { project: "acme/web", agentId, name: "deploy" };
  const first = createElsewhere("ClusterAgentToken", inputs, {
    FORGE_TIMEOUT_MS: "800",
    FORGE_BASE_URL: world().emulator.url,
    FORGE_TOKEN: world().user("root").token,
  });
  // Once the first process has looked (its POST follows at once and meets the slow forge)...
  const started = Date.now();
  while (!(await looked(`/cluster_agents/${agentId}/tokens`)) && Date.now() - started < 20_000) await sleep(50);
  await sleep(200);
  // ...the second stack (same credentials, same program) makes its token meanwhile, in this process.
  const second = await dynamicFaceOf("ClusterAgentToken").create(inputs);
  const secondId = (second.outs as State)["tokenId"];
  const outcome = await first;
  expect(outcome.ok).toBe(false);
  expect(outcome.name).toBe("UnprovenCreateError");
  expect(outcome.candidates).toContain(`acme/web:${agentId}:${secondId}`);
  await sleep(2000); // the slow request lands
  const active = await tokensOf(agentId);
  expect(active.map((token) => token.id)).toContain(secondId);
  expect(active).toHaveLength(2); // the second stack's, and the one the slow request made (reported, never revoked)
  expect((await writes()).filter((entry) => entry.method === "DELETE")).toEqual([]);
});

it("one parent spelled two ways in one run takes one turn: neither create revokes or adopts the other's token", async () => {
  const agentId = await newAgent("two-spellings");
  // The first POST waits, then is refused before any work; the other create must not run in between.
  await fault({ method: "POST", path: "/cluster_agents/\\d+/tokens$", status: 503, latencyMs: 500, times: 1 });
  const ops = dynamicFaceOf("ClusterAgentToken");
  const [byPath, byId] = await Promise.all([
    ops.create({ project: "acme/web", agentId, name: "deployer" }),
    sleep(100).then(() => ops.create({ project: String(world().projectId("acme/web")), agentId, name: "deployer" })),
  ]);
  const ids = [byPath, byId].map((created) => (created.outs as State)["tokenId"]);
  expect(new Set(ids).size).toBe(2);
  expect((await tokensOf(agentId)).map((token) => token.id).sort()).toEqual([...ids].sort());
  expect((await writes()).filter((entry) => entry.method === "DELETE")).toEqual([]);
});

it("forge-recover's candidates: a same-named token another user made after the killed run is disproved by its creator, and cleared rather than adopted", async () => {
  const agentId = await newAgent("killed-run");
  const claim = new Date(Date.now() - 1000).toISOString();
  const inputs = { project: "acme/web", agentId, name: "deploy", __createdAfter: claim };
  // The person's token, made after the run was killed (no POST of the run ever reached the forge).
  const theirs = (
    await world().as("max").request<{ id: number }>("POST", "/projects/:project/cluster_agents/:agentId/tokens", {
      project: "acme/web",
      agentId,
      name: "deploy",
    })
  ).body.id;
  const { candidates } = await operations("ClusterAgentToken").pendingCreateCandidates(inputs);
  expect(candidates).toEqual([expect.objectContaining({ id: `acme/web:${agentId}:${theirs}`, madeByOther: true })]);
  const plan: RecoveryPlan = { adopts: [], clears: [], undecided: [], notes: [] };
  decide([{ urn: "urn:token", type: "ClusterAgentToken", inputs, inState: false }], candidates, new Set(), { offsetMs: 0 }, plan);
  expect(plan).toEqual({ adopts: [], clears: ["urn:token"], undecided: [], notes: [] });
  expect((await tokensOf(agentId)).map((token) => token.id)).toEqual([theirs]);
});
