/**
 * The SDKs of other languages, generated from the plugin's schema by scripts/gen-sdks.sh (Pulumi's
 * own generators): the Python SDK installed with pip into a virtual environment that holds the
 * `pulumi` package from PyPI (cached under ~/.cache/forge-pulumi), then a program on Pulumi's
 * mocks that declares resources and calls a lookup, which must reach the engine's side with the
 * plugin's type tokens and the inputs under their schema names; the Go SDK compiled and vetted
 * against github.com/pulumi/pulumi/sdk/v3. Running Python or Go programs against the engine needs
 * language hosts these machines cannot build (docs/guides/other-languages.md).
 */
import { execFile } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { engineTestDecision, pulumiInstalled, PULUMI_SDK_VERSION, REPO_ROOT } from "./harness";

const run = promisify(execFile);
const CACHE = join(homedir(), ".cache", "forge-pulumi");
const VENV = join(CACHE, `python-pulumi-${PULUMI_SDK_VERSION}`);
let out: string;

beforeAll(async () => {
  engineTestDecision(process.env, pulumiInstalled());
  out = mkdtempSync(join(tmpdir(), "forge-sdks-"));
  await run("bash", [join(REPO_ROOT, "scripts", "gen-sdks.sh"), out], { maxBuffer: 16 * 1024 * 1024 });
}, 600_000);

afterAll(() => {
  if (out) rmSync(out, { recursive: true, force: true });
});

it("the Python SDK installs beside pulumi from PyPI and registers the plugin's tokens and inputs", async () => {
  const python = join(VENV, "bin", "python");
  if (!existsSync(python)) {
    await run("python3", ["-m", "venv", VENV]);
    await run(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", `pulumi==${PULUMI_SDK_VERSION}`], {
      maxBuffer: 16 * 1024 * 1024,
    });
  }
  await run(
    python,
    ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--force-reinstall", "--no-deps", join(out, "python")],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  // The SDK's own requirements besides pulumi (setup.py): what a user's pip would bring.
  await run(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "parver>=0.2.1", "semver>=2.8.1"], {
    maxBuffer: 16 * 1024 * 1024,
  });
  const { stdout } = await run(python, [join(REPO_ROOT, "test", "e2e", "sdk-check.py")], { cwd: out });
  const report = JSON.parse(stdout) as {
    seen: { type: string; inputs: Record<string, unknown> }[];
    calls: { token: string; args: object }[];
    labelId: number;
    group: object;
  };
  // Registrations run concurrently: in either order.
  expect([...report.seen].sort((a, b) => a.type.localeCompare(b.type))).toEqual([
    { name: "token", type: "forge:index:ClusterAgentToken", inputs: { project: "acme/web", agentId: 3, name: "primary" } },
    { name: "bug", type: "forge:index:GroupLabel", inputs: { group: "acme", name: "type::bug", color: "red" } },
    { name: "jane", type: "forge:index:ProjectMember", inputs: { project: "acme/web", user: "jane", accessLevel: 40 } },
  ]);
  expect(report.calls).toEqual([{ token: "forge:index:getGroup", args: { group: "acme" } }]);
  expect(report.labelId).toBe(7);
  expect(report.group).toMatchObject({ fullPath: "acme" });
}, 600_000);

it("the Go SDK compiles and vets against the Pulumi Go SDK of the same release", async () => {
  const module = join(out, "go-module");
  cpSync(join(out, "go", "forge"), module, { recursive: true });
  writeFileSync(
    join(module, "go.mod"),
    `module example.com/pulumi-forge/sdk/go/forge\n\ngo 1.25\n\nrequire github.com/pulumi/pulumi/sdk/v3 v${PULUMI_SDK_VERSION}\n`,
  );
  // The CLI's build resolved the same SDK: its sums spare a trip to the checksum database.
  const cliSums = join(CACHE, `build-${PULUMI_SDK_VERSION}`, "cli", "go.sum");
  if (existsSync(cliSums)) copyFileSync(cliSums, join(module, "go.sum"));
  const env = { ...process.env, GOTOOLCHAIN: "local", GOWORK: "off", GOFLAGS: "-mod=mod" };
  await run("go", ["mod", "tidy"], { cwd: module, env, maxBuffer: 16 * 1024 * 1024 });
  await run("go", ["vet", "./..."], { cwd: module, env, maxBuffer: 16 * 1024 * 1024 });
  const { stdout } = await run("go", ["doc", ".", "GroupLabel"], { cwd: module, env });
  expect(stdout).toContain("type GroupLabel struct");
  expect(stdout).toContain("pulumi import forge:index:GroupLabel");
  // The schema's enums are typed constants: the access levels by the API's role names.
  const levels = await run("go", ["doc", ".", "ProjectMemberAccessLevelMaintainer"], { cwd: module, env });
  expect(levels.stdout).toMatch(/ProjectMemberAccessLevelMaintainer\s+= ProjectMemberAccessLevel\(40\)/);
}, 600_000);
