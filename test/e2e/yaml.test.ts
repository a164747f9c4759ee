/**
 * Pulumi YAML through the real CLI, the YAML language host (scripts/install-pulumi-yaml.sh) and
 * the provider plugin's launcher:
 * - the example (examples/yaml, docs/installation-configuration.md's "Pulumi YAML"), copied as it is
 *   with only its plugin path made absolute: up (its `config:` block read, no deprecation
 *   warning), a no-op preview that refreshes first, drift caught by refresh and repaired by up,
 *   the secret config and the agent's token absent from the state in plain text, destroy leaving
 *   nothing;
 * - `pulumi import forge:index:GroupLabel ...` in a YAML project: exit 0, the YAML declaration
 *   printed, and that declaration pasted into the program previews clean;
 * - the three lookups whose answers hold secret fields (test/e2e/programs/yaml-lookups): the
 *   answers arrive, secret, and the state never holds their secret values in plain text.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { seedToken, startEmulator, type RunningEmulator } from "../../emulator";
import { cliProject, PLUGIN_DIR, type CliProject } from "./cli-project";
import { engineTestDecision, PULUMI_ROOT, pulumiInstalled, REPO_ROOT } from "./harness";

const EXAMPLE = join(REPO_ROOT, "examples", "yaml");
const LOOKUPS_PROGRAM = join(REPO_ROOT, "test", "e2e", "programs", "yaml-lookups");
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
  if (!existsSync(join(PULUMI_ROOT, "bin", "pulumi-language-yaml")))
    throw new Error("the YAML language host is missing: run `. scripts/setup.sh` (scripts/install-pulumi-yaml.sh)");
  if (!existsSync(join(REPO_ROOT, "dist", "provider", "plugin", "main.js"))) throw new Error("dist/ is missing: run `. scripts/setup.sh`");
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
  usePluginDir(project, "../../plugin");
}, 600_000);

/** Points the copied program's `plugins.providers` path (relative to where it was) at the plugin. */
function usePluginDir(program: CliProject, relative: string): void {
  const manifest = join(program.dir, "Pulumi.yaml");
  const text = readFileSync(manifest, "utf8");
  expect(text).toContain(`path: ${relative}`);
  writeFileSync(manifest, text.replace(`path: ${relative}`, `path: ${PLUGIN_DIR}`));
}

const connection = () => ({ "forge:baseUrl": { value: emulator.url }, "forge:token": { value: seedToken("root"), secret: true } });

afterAll(async () => {
  await emulator?.close();
  project?.close();
});

it("up creates every resource; a second preview, refreshing first, changes nothing", async () => {
  const up = await project.ok(["up", "--yes", "--skip-preview"]);
  // The project's `config:` block is read (the defaults and the secret key), and no warning says
  // that the template's `configuration:` block is deprecated.
  expect(up).not.toContain("deprecated");
  expect(await labelNames()).toEqual(["priority::high", "type::bug", "type::feature"]);
  expect((await api<{ name: string }[]>(`/projects/${DEPLOYER}/protected_environments`)).map((environment) => environment.name)).toEqual([
    "production",
  ]);
  const agents = await api<{ id: number; name: string }[]>(`/projects/${DEPLOYER}/cluster_agents`);
  expect(agents.map((agent) => agent.name)).toEqual(["production"]);
  expect(
    (await api<{ name: string; status: string }[]>(`/projects/${DEPLOYER}/cluster_agents/${agents[0]!.id}/tokens`)).map(
      (token) => token.name,
    ),
  ).toEqual(["primary"]);
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

describe("pulumi import in a YAML project", () => {
  it("adopts a label, exits 0 and prints its YAML declaration; pasted into the program, it previews clean", async () => {
    const label = await api<{ id: number }>("/groups/acme/labels", {
      method: "POST",
      body: JSON.stringify({ name: "import::me", color: "#123456", description: "Made by hand" }),
    });
    const program = `name: forge-import\nruntime: yaml\nplugins:\n  providers:\n    - name: forge\n      path: ${PLUGIN_DIR}\n`;
    const importing = await cliProject({ name: "yaml-import", from: { "Pulumi.yaml": program }, config: connection() });
    try {
      const result = await importing.run(["import", "forge:index:GroupLabel", "bug", `acme:${label.id}`, "--yes", "--skip-preview"]);
      expect(result.code, result.output).toBe(0);
      expect(result.output).not.toContain("GenerateProgram");
      const code = result.stdout.slice(result.stdout.indexOf("\nresources:\n") + 1);
      const declared = (
        parse(code) as {
          resources: Record<string, { type: string; properties: Record<string, unknown>; options: Record<string, unknown> }>;
        }
      ).resources;
      expect(Object.keys(declared)).toEqual(["bug"]);
      // `forge:GroupLabel` is Pulumi YAML's short spelling of `forge:index:GroupLabel`.
      expect(declared["bug"]!.type).toBe("forge:GroupLabel");
      expect(declared["bug"]!.properties).toMatchObject({
        group: "acme",
        name: "import::me",
        color: "#123456",
        description: "Made by hand",
      });
      expect(declared["bug"]!.options).toEqual({ protect: true });
      expect((await importing.resources()).find((resource) => resource.type === "forge:index:GroupLabel")?.id).toBe(`acme:${label.id}`);
      writeFileSync(join(importing.dir, "Pulumi.yaml"), `${program}${code}`);
      await importing.ok(["preview", "--expect-no-changes"]);
    } finally {
      importing.close();
    }
  }, 600_000);
});

describe("the import option, from YAML: an import never writes", () => {
  // A person set the integration up; the program's per-event webhook (a secret) differs.
  const THEIRS = "https://hooks.example/T0/B0/theirs-push-5d1c";
  const OURS = "https://hooks.example/T0/B0/ours-push-9a7e";
  const WEBHOOK = "https://hooks.example/T0/B0/ours-webhook-77b2";
  const program = (pushChannel?: string) =>
    `name: forge-import-option\nruntime: yaml\nplugins:\n  providers:\n    - name: forge\n      path: ${PLUGIN_DIR}\nresources:\n` +
    (pushChannel === undefined
      ? "  {}\n"
      : `  chat:\n    type: forge:index:GroupIntegrationChatWebhook\n    properties:\n      group: acme\n      webhook: ${WEBHOOK}\n      pushChannel: ${pushChannel}\n    options:\n      import: acme:chat-webhook\n`);
  const writes = async () =>
    ((await (await emulator.admin("/requests")).json()) as { method: string; path: string }[]).filter(
      (request) => request.method !== "GET" && request.path.includes("/integrations/chat-webhook"),
    ).length;
  const pushChannel = async () =>
    (await api<{ properties: { push_channel: string } }>("/groups/acme/integrations/chat-webhook")).properties.push_channel;

  it("a differing secret fails the import naming the field, masked, and nothing is sent: after a refresh too; letting go of it leaves it on the forge; a matching program imports it", async () => {
    await api("/groups/acme/integrations/chat-webhook", {
      method: "PUT",
      body: JSON.stringify({ webhook: "https://hooks.example/T0/B0/theirs-webhook", push_channel: THEIRS }),
    });
    const before = await writes();
    const importing = await cliProject({ name: "yaml-import-option", from: { "Pulumi.yaml": program(OURS) }, config: connection() });
    try {
      const refused = await importing.run(["up", "--yes", "--skip-preview"]);
      expect(refused.code, refused.output).not.toBe(0);
      expect(refused.output).toMatch(/pushChannel: the program has \[secret\], the forge has \[secret\]/);
      expect(refused.output).toMatch(/cannot import "acme:chat-webhook": .* an import never writes: nothing was sent/);
      // The engine keeps what it read: a refresh, then the program again, is refused the same way.
      const again = await importing.run(["up", "--refresh", "--yes", "--skip-preview"]);
      expect(again.code, again.output).not.toBe(0);
      expect(again.output).toMatch(/pushChannel: the program has \[secret\], the forge has \[secret\]/);
      for (const output of [refused.output, again.output])
        for (const secret of [THEIRS, OURS, WEBHOOK]) expect(output).not.toContain(secret);
      expect(await pushChannel()).toBe(THEIRS);
      // Removed from the program: the stack lets go of it, the forge keeps it.
      writeFileSync(join(importing.dir, "Pulumi.yaml"), program());
      await importing.ok(["up", "--yes", "--skip-preview"]);
      expect((await api<{ active: boolean }>("/groups/acme/integrations/chat-webhook")).active).toBe(true);
      // The forge's value in the program: imported, nothing written.
      writeFileSync(join(importing.dir, "Pulumi.yaml"), program(THEIRS));
      const imported = await importing.ok(["up", "--yes", "--skip-preview"]);
      expect(imported).toMatch(/1 imported/);
      expect(imported).not.toMatch(/updated/);
      expect(await writes(), "nothing sent to the integration").toBe(before);
      expect(await pushChannel()).toBe(THEIRS);
    } finally {
      importing.close();
    }
  }, 600_000);
});

describe("lookups whose answers hold secret fields, from YAML", () => {
  const CLUSTER_API_URL = "https://k8s.yaml-lookups.example";
  const CLUSTER_TOKEN = "yaml-lookups-cluster-token";
  const CLIENT_CERT = "-----BEGIN CERTIFICATE-----\nMIIByamllookups\n-----END CERTIFICATE-----";
  const CLIENT_KEY = "-----BEGIN PRIVATE KEY-----\nMIIEyamllookups\n-----END PRIVATE KEY-----";
  let lookups: CliProject;
  let agentId: number;
  let clientKey: { public_key: string };

  beforeAll(async () => {
    // Made by hand: a YAML program runs its invokes first, before any resource of its own exists.
    await api("/admin/clusters/add", {
      method: "POST",
      body: JSON.stringify({ name: "yaml-lookups", platform_vendor_attributes: { api_url: CLUSTER_API_URL, token: CLUSTER_TOKEN } }),
    });
    clientKey = await api("/projects/acme%2Fweb/error_tracking/client_keys", { method: "POST" });
    agentId = (
      await api<{ id: number }>("/projects/acme%2Fweb/cluster_agents", { method: "POST", body: JSON.stringify({ name: "yaml-lookups" }) })
    ).id;
    await api(`/projects/acme%2Fweb/cluster_agents/${agentId}/url_configurations`, {
      method: "POST",
      body: JSON.stringify({ url: "grpcs://yaml-lookups.example:443", client_cert: CLIENT_CERT, client_key: CLIENT_KEY }),
    });
    lookups = await cliProject({
      name: "yaml-lookups",
      from: LOOKUPS_PROGRAM,
      config: { ...connection(), agentId: { value: String(agentId) } },
    });
    usePluginDir(lookups, "../../../../plugin");
  }, 600_000);

  afterAll(() => lookups?.close());

  it("listInstanceClusters, listErrorTrackingClientKeys and listClusterAgentUrlConfigurations answer, their answers secret", async () => {
    const up = await lookups.run(["up", "--yes", "--skip-preview"]);
    expect(up.code, up.output).toBe(0);
    expect(up.output).not.toContain("unexpected secret result");
    const shown = JSON.parse((await lookups.run(["stack", "output", "--json"])).stdout) as Record<string, unknown>;
    expect(shown).toEqual({ clusters: "[secret]", clientKeys: "[secret]", urlConfigurations: "[secret]", agentUrl: "[secret]" });
    const outputs = JSON.parse((await lookups.run(["stack", "output", "--json", "--show-secrets"])).stdout) as Record<string, unknown>;
    expect(outputs["clusters"]).toEqual([
      expect.objectContaining({ name: "yaml-lookups", platformVendor: expect.objectContaining({ apiUrl: CLUSTER_API_URL }) }),
    ]);
    expect(outputs["clientKeys"]).toEqual([expect.objectContaining({ publicKey: clientKey.public_key })]);
    expect(outputs["urlConfigurations"]).toEqual([
      expect.objectContaining({ agentId, clientCert: CLIENT_CERT, url: "grpcs://yaml-lookups.example:443" }),
    ]);
    expect(outputs["agentUrl"]).toBe("grpcs://yaml-lookups.example:443");
    const state = await lookups.exportText();
    for (const secret of [CLUSTER_API_URL, clientKey.public_key, "MIIByamllookups", CLUSTER_TOKEN, "MIIEyamllookups", seedToken("root")])
      expect(state).not.toContain(secret);
  }, 600_000);
});
