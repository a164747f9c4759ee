/**
 * The Pulumi YAML example (examples/yaml, the README's "From YAML and other languages") through
 * the real CLI, the YAML language host (scripts/install-pulumi-yaml.sh) and the provider plugin's
 * launcher: up, a no-op preview that refreshes first, drift caught by refresh and repaired by up, the
 * secret config and the agent's token absent from the state in plain text, destroy leaving
 * nothing. The program is copied as it is; only its plugin path is made absolute.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { seedToken, startEmulator, type RunningEmulator } from "../../emulator";
import { cliProject, PLUGIN_DIR, type CliProject } from "./cli-project";
import { engineTestDecision, PULUMI_ROOT, pulumiInstalled, REPO_ROOT } from "./harness";

const EXAMPLE = join(REPO_ROOT, "examples", "yaml");
const MONITORING_KEY = "yaml-monitoring-key-5c1e";
let emulator: RunningEmulator;
let project: CliProject;

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${emulator.url}/api/v4${path}`, {
    ...init,
    headers: { "PRIVATE-TOKEN": seedToken("root"), "Content-Type": "application/json" },
  });
  if (!response.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${response.status} ${await response.text()}`);
  return (response.status === 204 ? undefined : await response.json()) as T;
}

const labelNames = async () => (await api<{ name: string }[]>("/groups/acme/labels")).map((label) => label.name).sort();
const DEPLOYER = encodeURIComponent("acme/platform/deployer");

beforeAll(async () => {
  engineTestDecision(process.env, pulumiInstalled());
  if (!existsSync(join(PULUMI_ROOT, "bin", "pulumi-language-yaml"))) throw new Error("the YAML language host is missing: run `. scripts/setup.sh` (scripts/install-pulumi-yaml.sh)");
  if (!existsSync(join(REPO_ROOT, "dist", "cli", "pulumi-resource-forge.js"))) throw new Error("dist/ is missing: run `. scripts/setup.sh`");
  emulator = await startEmulator({ port: 0 });
  project = await cliProject({
    name: "yaml",
    from: EXAMPLE,
    config: {
      "forge:baseUrl": { value: emulator.url },
      "forge:token": { value: seedToken("root"), secret: true },
      monitoringApiKey: { value: MONITORING_KEY, secret: true },
    },
  });
  const manifest = join(project.dir, "Pulumi.yaml");
  const text = readFileSync(manifest, "utf8");
  expect(text).toContain("path: ../../plugin");
  writeFileSync(manifest, text.replace("path: ../../plugin", `path: ${PLUGIN_DIR}`));
}, 600_000);

afterAll(async () => {
  await emulator?.close();
  project?.close();
});

it("up creates every resource; a second preview, refreshing first, changes nothing", async () => {
  await project.ok(["up", "--yes", "--skip-preview"]);
  expect(await labelNames()).toEqual(["priority::high", "type::bug", "type::feature"]);
  expect((await api<{ name: string }[]>(`/projects/${DEPLOYER}/protected_environments`)).map((environment) => environment.name)).toEqual(["production"]);
  const agents = await api<{ id: number; name: string }[]>(`/projects/${DEPLOYER}/cluster_agents`);
  expect(agents.map((agent) => agent.name)).toEqual(["production"]);
  expect((await api<{ name: string; status: string }[]>(`/projects/${DEPLOYER}/cluster_agents/${agents[0]!.id}/tokens`)).map((token) => token.name)).toEqual(["primary"]);
  expect((await api<{ active: boolean }>("/groups/acme/integrations/monitoring")).active).toBe(true);
  // The lookup (an invoke of the plugin) read the group: acme is the seed's group 1.
  expect(JSON.parse((await project.run(["stack", "output", "groupId", "--json"])).stdout)).toBe(1);
  // Refreshed first: one run shows no drift and nothing to change.
  expect(await project.ok(["preview", "--refresh", "--expect-no-changes"])).toContain("unchanged");
}, 600_000);

it("keeps the secret config, the agent's token and the forge token out of the state in plain text", async () => {
  const token = (await project.run(["stack", "output", "agentToken", "--show-secrets"])).stdout.trim();
  expect(token.length).toBeGreaterThan(10);
  const state = await project.exportText();
  expect(state).toContain("forge:index:ClusterAgentToken");
  for (const secret of [MONITORING_KEY, token, seedToken("root")]) expect(state).not.toContain(secret);
  expect(await project.ok(["stack", "output", "agentToken"])).toContain("[secret]");
}, 600_000);

it("refresh catches a change made by hand, and up repairs it", async () => {
  const bug = (await api<{ id: number; name: string }[]>("/groups/acme/labels")).find((label) => label.name === "type::bug")!;
  await api(`/groups/acme/labels/${bug.id}`, { method: "PUT", body: JSON.stringify({ color: "#00FF00" }) });
  const refreshed = await project.run(["refresh", "--yes", "--skip-preview", "--expect-no-changes"]);
  expect(refreshed.code).not.toBe(0);
  expect(refreshed.output).toContain("type-bug");
  await project.ok(["up", "--yes", "--skip-preview"]);
  expect((await api<{ color: string }>(`/groups/acme/labels/${bug.id}`)).color.toUpperCase()).toBe("#D9534F");
  await project.ok(["preview", "--expect-no-changes"]);
}, 600_000);

it("destroy leaves nothing", async () => {
  await project.ok(["destroy", "--yes", "--skip-preview"]);
  expect(await labelNames()).toEqual([]);
  expect(await api<unknown[]>(`/projects/${DEPLOYER}/cluster_agents`)).toEqual([]);
  expect(await api<unknown[]>(`/projects/${DEPLOYER}/protected_environments`)).toEqual([]);
  expect((await api<{ active: boolean }>("/groups/acme/integrations/monitoring")).active).toBe(false);
}, 600_000);
