/**
 * The provider plugin through the real engine: a program that declares `forge:index:*` resources
 * with the classes of `pulumi-forge/plugin` (no dynamic provider), the plugin found through `plugins.providers` in
 * Pulumi.yaml (the repository's launcher, plugin/pulumi-resource-forge, on Node: the engine layers'
 * other programs run the executable, test/support/plugin-under-test.ts), its connection from the
 * provider configuration (`forge:baseUrl`, secret `forge:token`). up, a no-op preview, a secret
 * input kept out of the state in plain text, `pulumi import`, a missing token, destroy leaving
 * nothing of the stack's (an import no program matched is let go); a failing preview without the secret, and a same-named label made by hand that neither
 * up nor destroy touches. Drift through the plugin is yaml.test.ts's.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { seedToken, startEmulator, type RunningEmulator } from "../../emulator";
import { cliProject, NODE_PLUGIN_DIR, type CliProject } from "./cli-project";
import { engineTestDecision, pulumiInstalled, REPO_ROOT } from "./harness";

const SECRET_DESCRIPTION = "plugin-secret-description-7f3a";
let emulator: RunningEmulator;
let project: CliProject;

async function labels(): Promise<{ id: number; name: string; color: string; description: string | null }[]> {
  const response = await fetch(`${emulator.url}/api/v4/groups/acme/labels`, { headers: { "PRIVATE-TOKEN": seedToken("root") } });
  return (await response.json()) as { id: number; name: string; color: string; description: string | null }[];
}

beforeAll(async () => {
  engineTestDecision(process.env, pulumiInstalled());
  if (!existsSync(join(REPO_ROOT, "dist", "provider", "plugin", "main.js"))) throw new Error("dist/ is missing: run `. scripts/setup.sh`");
  emulator = await startEmulator({ port: 0 });
  project = await cliProject({
    name: "plugin",
    nodeModules: true,
    from: {
      "Pulumi.yaml": `name: forge-plugin\nruntime: nodejs\nplugins:\n  providers:\n    - name: forge\n      path: ${NODE_PLUGIN_DIR}\n`,
      // The typed classes of pulumi-forge/plugin (the same arguments as the dynamic ones).
      "index.js": `const pulumi = require("@pulumi/pulumi");
const forge = require("pulumi-forge/plugin");
const config = new pulumi.Config();
const label = new forge.GroupLabel("bug", { group: "acme", name: "bug", color: config.get("color") || "red", description: config.requireSecret("description") });
exports.labelId = label.labelId;
exports.type = forge.GroupLabel.typeToken;
`,
    },
    config: {
      "forge:baseUrl": { value: emulator.url },
      "forge:token": { value: seedToken("root"), secret: true },
      description: { value: SECRET_DESCRIPTION, secret: true },
    },
  });
}, 600_000);

afterAll(async () => {
  await emulator?.close();
  project?.close();
});

// Drift through the plugin (refresh catches, up repairs) is yaml.test.ts's: the same plugin, a faster host.
it("up creates through the plugin; a second preview changes nothing", async () => {
  const up = await project.ok(["up", "--yes", "--skip-preview"]);
  expect(up).toContain("forge:index:GroupLabel");
  expect((await labels()).map((label) => label.name)).toEqual(["bug"]);
  expect(await project.ok(["preview", "--expect-no-changes"])).toContain("unchanged");
}, 600_000);

it("keeps the secret input, its derived output and the token out of the state in plain text", async () => {
  const state = await project.exportText();
  expect(state).toContain("forge:index:GroupLabel");
  expect(state).not.toContain(SECRET_DESCRIPTION);
  expect(state).not.toContain(seedToken("root"));
  expect(readFileSync(join(project.dir, "Pulumi.test.yaml"), "utf8")).not.toContain(seedToken("root"));
}, 600_000);

it("pulumi import takes an object made by hand into the state (no code generation: the language hosts here have none)", async () => {
  const response = await fetch(`${emulator.url}/api/v4/groups/acme/labels`, {
    method: "POST",
    headers: { "PRIVATE-TOKEN": seedToken("root"), "Content-Type": "application/json" },
    body: JSON.stringify({ name: "by-hand", color: "#0000ff" }),
  });
  const { id } = (await response.json()) as { id: number };
  await project.ok([
    "import",
    "forge:index:GroupLabel",
    "by-hand",
    `acme:${id}`,
    "--yes",
    "--skip-preview",
    "--generate-code=false",
    "--protect=false",
  ]);
  const imported = (await project.resources()).filter((resource) => resource.type === "forge:index:GroupLabel");
  expect(imported.map((resource) => resource.id)).toContain(`acme:${id}`);
}, 600_000);

it("without a token, up fails with the dynamic providers' message naming both ways to set it, and creates nothing", async () => {
  await project.ok(["config", "rm", "forge:token"]);
  // A change to write (the token is needed for it).
  await project.ok(["config", "set", "color", "blue"]);
  const failed = await project.run(["up", "--yes", "--skip-preview"], { FORGE_TOKEN: "" });
  await project.ok(["config", "rm", "color"]);
  expect(failed.code).not.toBe(0);
  expect(failed.output).toMatch(/FORGE_TOKEN/);
  expect(failed.output).toContain("pulumi config set --secret forge:token");
  expect((await labels()).map((label) => label.name).sort()).toEqual(["bug", "by-hand"]);
}, 600_000);

it("destroy, on the last deployment's provider configuration (no token) and FORGE_TOKEN, leaves nothing of the stack's; an import no program matched is let go, left on the forge", async () => {
  // Pulumi destroys with the provider configuration the state holds: the failed up's, without a
  // token; the plugin falls back to the environment as the dynamic providers do.
  await project.ok(["destroy", "--yes", "--skip-preview"], { FORGE_TOKEN: seedToken("root") });
  // `by-hand` was imported and never declared: not the stack's to delete (docs/ownership.md).
  const left = await labels();
  expect(left.map((label) => label.name)).toEqual(["by-hand"]);
  await fetch(`${emulator.url}/api/v4/groups/acme/labels/${left[0]!.id}`, {
    method: "DELETE",
    headers: { "PRIVATE-TOKEN": seedToken("root") },
  });
}, 600_000);

it("a failing preview names the field, and never the secret input's value", async () => {
  await project.ok(["config", "set", "color", "not-a-colour"]);
  const failed = await project.run(["preview"], { FORGE_TOKEN: seedToken("root") });
  await project.ok(["config", "rm", "color"]);
  expect(failed.code).not.toBe(0);
  expect(failed.output).toContain("color");
  expect(failed.output).not.toContain(SECRET_DESCRIPTION);
}, 600_000);

it("a label of the same name made by hand: up refuses it, naming its import id, and neither up nor destroy touches it", async () => {
  const response = await fetch(`${emulator.url}/api/v4/groups/acme/labels`, {
    method: "POST",
    headers: { "PRIVATE-TOKEN": seedToken("root"), "Content-Type": "application/json" },
    body: JSON.stringify({ name: "bug", color: "#0000FF" }),
  });
  const { id } = (await response.json()) as { id: number };
  const env = { FORGE_TOKEN: seedToken("root") };
  const refused = await project.run(["up", "--yes", "--skip-preview"], env);
  expect(refused.code).not.toBe(0);
  expect(refused.output).toContain(`acme:${id}`);
  expect(refused.output).not.toContain(SECRET_DESCRIPTION);
  await project.ok(["destroy", "--yes", "--skip-preview"], env);
  const left = (await labels()) as { name: string; description: string | null; color: string }[];
  expect(left.map((label) => [label.name, label.color.toUpperCase(), label.description])).toEqual([["bug", "#0000FF", null]]);
}, 600_000);
