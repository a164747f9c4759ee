/**
 * `npm run bench:creates`: how many requests one create of each kind sends now, against the
 * emulator in this process (real HTTP on loopback), with no faults. Lost-create recovery reads
 * before it creates (the identity, or the listing of the parent for kinds nothing identifies):
 * this prints that price per kind, beside the request that does the work. A second create of the
 * kinds that list their parent shows how the listing grows with what is there. Then the update
 * and the delete of the kinds that keep evidence of which object they hold: the read before each.
 *
 * Not a test: it prints counts and asserts nothing.
 */
import { startEmulator, seedToken, type RunningEmulator } from "../emulator";
import { ForgeClient } from "../provider/client";
import { routes } from "../api/routes";
import type { State } from "../provider/engine/declaration";
import { dynamicFaceOf } from "../provider/runtime";

interface Logged {
  method: string;
  path: string;
}

async function admin<T>(emulator: RunningEmulator, route: string): Promise<T> {
  const response = await fetch(`${emulator.url}/__emulator/${route}`, { headers: { "private-token": seedToken("root") } });
  return (await response.json()) as T;
}

async function main(): Promise<void> {
  const emulator = await startEmulator({ port: 0, requestLogSize: 10_000 });
  process.env["FORGE_BASE_URL"] = emulator.url;
  process.env["FORGE_TOKEN"] = seedToken("root");
  const api = new ForgeClient({ baseUrl: emulator.url, token: seedToken("root") });
  try {
    const agentId = (await api.request<{ id: number }>(routes.clusterAgents.create, { project: "acme/web", name: "bench-agent" })).body.id;
    const secondAgent = (await api.request<{ id: number }>(routes.clusterAgents.create, { project: "acme/web", name: "bench-agent-2" }))
      .body.id;
    const rows: Array<[string, (i: number) => State]> = [
      ["GroupLabel", (i) => ({ group: "acme", name: `cost-${i}`, color: "red" })],
      ["ClusterAgent", (i) => ({ project: "acme/web", name: `cost-${i}` })],
      ["ClusterAgentToken", (i) => ({ project: "acme/web", agentId, name: `cost-${i}` })],
      [
        "ClusterAgentUrlConfiguration",
        (i) => ({ project: "acme/web", agentId: i === 0 ? agentId : secondAgent, url: "grpcs://agent.example.com:443" }),
      ],
      ["ErrorTrackingClientKey", () => ({ project: "acme/web" })],
      ["FeatureFlagUserList", (i) => ({ project: "acme/web", name: `cost-${i}`, userXids: ["user-1"] })],
      ["ProjectProtectedEnvironment", (i) => ({ project: "acme/web", name: `cost-${i}`, deployAccessLevels: [{ accessLevel: 40 }] })],
      ["ProjectMember", (i) => ({ project: "acme/web", user: ["nomad", "root"][i] as string, accessLevel: 30 })],
      ["Snippet", (i) => ({ title: `cost-${i}`, files: [{ filePath: "a.txt", content: "a\n" }] })],
      ["BroadcastMessage", (i) => ({ message: `cost ${i}` })],
      ["InstanceCluster", (i) => ({ name: `cost-${i}`, platformVendorAttributes: { apiUrl: `https://k8s-${i}.example`, token: "t" } })],
      ["GeoSite", (i) => ({ name: `cost-${i}`, url: `https://geo-${i}.example/` })],
    ];
    console.log("| kind | requests per create (first / second) | of which reads before the create | the create's own |");
    console.log("|---|---|---|---|");
    for (const [kind, inputs] of rows) {
      const counts: string[] = [];
      let reads = "";
      let own = "";
      for (const i of [0, 1]) {
        const since = (await admin<{ seq: number }>(emulator, "requests/last")).seq;
        await dynamicFaceOf(kind).create(inputs(i));
        const logged = await admin<Logged[]>(emulator, `requests?since=${since}`);
        counts.push(String(logged.length));
        const firstWrite = logged.findIndex((entry) => entry.method !== "GET");
        if (i === 0) {
          reads = String(firstWrite);
          own = logged
            .slice(firstWrite)
            .map((entry) => entry.method)
            .join(" + ");
        }
      }
      console.log(`| ${kind} | ${counts.join(" / ")} | ${reads} | ${own} |`);
    }
    // Kinds addressed by a name or a parent read the object before an update or a delete, to
    // tell the stack's from one made again under its address (engine/evidence.ts).
    const evidenceRows: Array<[string, State, State]> = [
      [
        "ProjectProtectedEnvironment",
        { project: "acme/web", name: "cost-evidence", deployAccessLevels: [{ accessLevel: 40 }] },
        { deployAccessLevels: [{ accessLevel: 40 }, { accessLevel: 30 }] },
      ],
      [
        "GroupProtectedEnvironment",
        { group: "acme", name: "staging", deployAccessLevels: [{ accessLevel: 40 }] },
        { requiredApprovalCount: 1 },
      ],
      ["VirtualRegistryCleanupPolicy", { group: "acme", cadence: 7 }, { cadence: 14 }],
      ["ProjectMember", { project: "acme/api", user: "nomad", accessLevel: 30 }, { accessLevel: 40 }],
    ];
    console.log("\n| kind | update: requests (methods) | delete: requests (methods) |");
    console.log("|---|---|---|");
    for (const [kind, inputs, change] of evidenceRows) {
      const made = await dynamicFaceOf(kind).create(inputs);
      const measured = async (step: () => Promise<unknown>) => {
        const since = (await admin<{ seq: number }>(emulator, "requests/last")).seq;
        await step();
        const logged = await admin<Logged[]>(emulator, `requests?since=${since}`);
        return `${logged.length} (${logged.map((entry) => entry.method).join(" + ")})`;
      };
      const updated = await measured(() => dynamicFaceOf(kind).update(made.id, made.outs as State, { ...inputs, ...change }));
      const deleted = await measured(() => dynamicFaceOf(kind).delete(made.id, made.outs as State));
      console.log(`| ${kind} | ${updated} | ${deleted} |`);
    }
  } finally {
    await emulator.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
