/**
 * The provider plugin through the real engine: a program that declares `forge:index:*` resources
 * by type token (no dynamic provider), the plugin found through `plugins.providers` in
 * Pulumi.yaml, its connection from the provider configuration (`forge:baseUrl`, secret
 * `forge:token`). up, a no-op preview and refresh, drift caught, a secret input kept out of the
 * state in plain text, destroy leaving nothing.
 */
import { execFile } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { seedToken, startEmulator, type RunningEmulator } from "../../emulator";
import { engineTestDecision, pulumiInstalled, PULUMI_ROOT, REPO_ROOT } from "./harness";

const SECRET_DESCRIPTION = "plugin-secret-description-7f3a";
let emulator: RunningEmulator;
let work: string;
let program: string;

function pulumi(args: string[]): Promise<{ code: number; output: string }> {
  const env = {
    ...process.env,
    PATH: `${join(PULUMI_ROOT, "bin")}${delimiter}${dirname(process.execPath)}${delimiter}${process.env["PATH"] ?? ""}`,
    PULUMI_BACKEND_URL: `file://${join(work, "backend")}`,
    PULUMI_CONFIG_PASSPHRASE: "plugin-test",
    PULUMI_HOME: join(work, "home"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    NO_COLOR: "1",
    // The connection comes from the provider's configuration alone.
    FORGE_BASE_URL: "",
    FORGE_TOKEN: "",
  };
  return new Promise((resolve) => {
    execFile("pulumi", [...args, "--non-interactive", "--color", "never"], { cwd: program, env, maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, output: `${stdout}\n${stderr}` });
    });
  });
}

async function ok(args: string[]): Promise<string> {
  const result = await pulumi(args);
  if (result.code !== 0) throw new Error(`pulumi ${args.join(" ")} failed:\n${result.output}`);
  return result.output;
}

async function labels(): Promise<{ name: string; description: string | null }[]> {
  const response = await fetch(`${emulator.url}/api/v4/groups/acme/labels`, { headers: { "PRIVATE-TOKEN": seedToken("root") } });
  return (await response.json()) as { name: string; description: string | null }[];
}

beforeAll(async () => {
  engineTestDecision(process.env, pulumiInstalled());
  if (!existsSync(join(REPO_ROOT, "dist", "cli", "pulumi-resource-forge.js"))) throw new Error("dist/ is missing: run `. scripts/setup.sh`");
  emulator = await startEmulator({ port: 0 });
  work = mkdtempSync(join(tmpdir(), "forge-plugin-"));
  mkdirSync(join(work, "backend"));
  mkdirSync(join(work, "home"));
  const plugin = join(work, "plugin");
  mkdirSync(plugin);
  writeFileSync(join(plugin, "pulumi-resource-forge"), `#!/bin/sh\nexec "${process.execPath}" "${join(REPO_ROOT, "dist", "cli", "pulumi-resource-forge.js")}" "$@"\n`);
  chmodSync(join(plugin, "pulumi-resource-forge"), 0o755);
  program = join(work, "program");
  mkdirSync(program);
  symlinkSync(join(REPO_ROOT, "node_modules"), join(program, "node_modules"), "dir");
  writeFileSync(join(program, "Pulumi.yaml"), `name: forge-plugin\nruntime: nodejs\nplugins:\n  providers:\n    - name: forge\n      path: ${plugin}\n`);
  writeFileSync(
    join(program, "index.js"),
    `const pulumi = require("@pulumi/pulumi");
const config = new pulumi.Config();
const label = new pulumi.CustomResource("forge:index:GroupLabel", "bug", {
  group: "acme", name: "bug", color: "red", description: config.requireSecret("description"),
  labelId: undefined, textColor: undefined, descriptionHtml: undefined,
});
exports.labelId = label.labelId;
`,
  );
  await ok(["stack", "init", "test"]);
  await ok(["config", "set", "forge:baseUrl", emulator.url]);
  await ok(["config", "set", "--secret", "forge:token", seedToken("root")]);
  await ok(["config", "set", "--secret", "description", SECRET_DESCRIPTION]);
}, 600_000);

afterAll(async () => {
  await emulator?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

it("up creates through the plugin; a second preview and a refresh change nothing", async () => {
  await ok(["up", "--yes"]);
  expect((await labels()).map((label) => label.name)).toEqual(["bug"]);
  expect(await ok(["preview", "--expect-no-changes"])).toContain("unchanged");
  await ok(["refresh", "--yes", "--expect-no-changes"]);
}, 600_000);

it("keeps the secret input, its derived output and the token out of the state in plain text", async () => {
  const state = await ok(["stack", "export"]);
  expect(state).toContain("forge:index:GroupLabel");
  expect(state).not.toContain(SECRET_DESCRIPTION);
  expect(state).not.toContain(seedToken("root"));
  expect(readFileSync(join(program, "Pulumi.test.yaml"), "utf8")).not.toContain(seedToken("root"));
}, 600_000);

it("catches drift with refresh and repairs it with up", async () => {
  await fetch(`${emulator.url}/api/v4/groups/acme/labels/bug`, {
    method: "PUT",
    headers: { "PRIVATE-TOKEN": seedToken("root"), "Content-Type": "application/json" },
    body: JSON.stringify({ color: "#00ff00" }),
  });
  const refreshed = await pulumi(["refresh", "--yes", "--expect-no-changes"]);
  expect(refreshed.code).not.toBe(0);
  await ok(["up", "--yes"]);
  await ok(["preview", "--expect-no-changes"]);
}, 600_000);

it("pulumi import takes an object made by hand into the state (no code generation: the language hosts here have none)", async () => {
  const response = await fetch(`${emulator.url}/api/v4/groups/acme/labels`, {
    method: "POST",
    headers: { "PRIVATE-TOKEN": seedToken("root"), "Content-Type": "application/json" },
    body: JSON.stringify({ name: "by-hand", color: "#0000ff" }),
  });
  const { id } = (await response.json()) as { id: number };
  await ok(["import", "forge:index:GroupLabel", "by-hand", `acme:${id}`, "--yes", "--generate-code=false", "--protect=false"]);
  const state = JSON.parse(await ok(["stack", "export"])) as { deployment: { resources: { type: string; id?: string }[] } };
  expect(state.deployment.resources.filter((resource) => resource.type === "forge:index:GroupLabel").map((resource) => resource.id).sort()).toContain(`acme:${id}`);
}, 600_000);

it("destroy leaves nothing", async () => {
  await ok(["destroy", "--yes"]);
  expect(await labels()).toEqual([]);
}, 600_000);
