/**
 * The SDKs of other languages, generated from the plugin's schema by scripts/gen-sdks.sh (Pulumi's
 * own generators), as a Python or Go user meets them:
 * - each carries the package's version, the plugin version its resources ask the engine for;
 * - their docs name fields as the language writes them;
 * - Python: the package installed with pip beside `pulumi` from PyPI (test/e2e/sdk-setup.ts), then a
 *   program on Pulumi's mocks (test/e2e/sdk-check.py) whose declarations reach the engine's side with
 *   the plugin's tokens and the inputs under their schema names, and whose outputs come back typed;
 *   the sample program (test/languages/programs/python) type-checks with `mypy --strict`;
 * - Go: the sample program (test/languages/programs/go) in a module made by the guide's recipe,
 *   verbatim, vetted and built against github.com/pulumi/pulumi/sdk/v3.
 * Running those programs against the engine needs the language hosts: test/languages (optional).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { GO_IMPORT_PATH, type PackageSchema } from "../../scripts/generate/schema";
import { engineTestDecision, pulumiInstalled, PULUMI_SDK_VERSION, REPO_ROOT } from "./harness";
import { GO_ENV, goProgram, goRecipe, MYPY_CACHE, PROGRAMS, pythonEnvironment } from "./sdk-setup";

const run = promisify(execFile);
const BUFFER = { maxBuffer: 64 * 1024 * 1024 };
const { version } = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
const schema = JSON.parse(readFileSync(join(REPO_ROOT, "provider", "plugin", "schema.json"), "utf8")) as PackageSchema;
const GO_MODULE = GO_IMPORT_PATH.slice(0, GO_IMPORT_PATH.lastIndexOf("/"));
let out: string;
let python: string;

beforeAll(async () => {
  engineTestDecision(process.env, pulumiInstalled());
  out = mkdtempSync(join(tmpdir(), "forge-sdks-"));
  await run("bash", [join(REPO_ROOT, "scripts", "gen-sdks.sh"), out], BUFFER);
  python = await pythonEnvironment(join(out, "python"));
}, 600_000);

afterAll(() => {
  if (out) rmSync(out, { recursive: true, force: true });
});

const read = (...path: string[]) => readFileSync(join(out, ...path), "utf8");

it("each SDK carries the package's version: the plugin version its resources ask the engine for", () => {
  expect(version).toMatch(/^\d+\.\d+\.\d+$/);
  const plugin = { resource: true, name: "forge", version };
  expect(JSON.parse(read("python", "pulumi_forge", "pulumi-plugin.json"))).toEqual(plugin);
  expect(JSON.parse(read("go", "forge", "pulumi-plugin.json"))).toEqual(plugin);
  const setup = read("python", "setup.py");
  expect(setup).toContain(`VERSION = "${version}"`);
  // pulumi 3.259 needs Python 3.10; the package's README is where setup.py reads it.
  expect(setup).toContain("python_requires='>=3.10'");
  expect(setup).toContain(`'pulumi>=${PULUMI_SDK_VERSION},<4.0.0'`);
  expect(read("python", "README.md")).toContain("import pulumi_forge as forge");
  expect(read("python", "pulumi_forge", "_utilities.py")).toMatch(new RegExp(`def get_version\\(\\):\\s+return "${version}"`));
  // Go: the resource options' version, and the module's own (what `pulumi import` reads back).
  expect(read("go", "forge", "internal", "pulumiUtilities.go")).toContain(`version := semver.MustParse("${version}")`);
  expect(read("go", "forge", "internal", "pulumiVersion.go")).toContain(`SdkVersion semver.Version = semver.MustParse("${version}")`);
  expect(read("go", "go.mod")).toMatch(
    new RegExp(`^module ${GO_MODULE}\\n[\\s\\S]*require github.com/pulumi/pulumi/sdk/v3 v${PULUMI_SDK_VERSION}`),
  );
});

it("their docs name fields, functions and options as the language writes them, and the schema's names nowhere", () => {
  const camel = new Set<string>();
  for (const resource of Object.values(schema.resources)) for (const name of Object.keys(resource.properties)) camel.add(name);
  for (const fn of Object.values(schema.functions)) for (const name of Object.keys(fn.inputs.properties)) camel.add(name);
  for (const name of [...camel]) if (name.toLowerCase() === name) camel.delete(name);
  // A function's description names the keys of the records it answers, which are camelCase in every language.
  const functions = new Set(Object.keys(schema.functions).map((token) => token.slice(token.lastIndexOf(":") + 1).toLowerCase()));
  const leftovers = (dir: string, comment: RegExp) =>
    readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter(
        (file) =>
          /\.(py|go)$/.test(file) &&
          !functions.has(
            file
              .replace(/\.(py|go)$/, "")
              .replace(/_/g, "")
              .toLowerCase(),
          ),
      )
      .flatMap((file) =>
        readFileSync(join(dir, file), "utf8")
          .split("\n")
          .filter((line) => comment.test(line))
          .flatMap((line) => [...line.matchAll(/`([^`]+)`/g)].map(([, code]) => code!))
          // Import ids (`<project>:<agentId>`) and quoted values keep the schema's words.
          .filter((code) => code.split(/[^A-Za-z0-9_<"]+/).some((word) => camel.has(word)))
          .map((code) => `${file}: ${code}`),
      );
  expect(leftovers(join(out, "go", "forge"), /^\s*\/\//)).toEqual([]);
  expect(leftovers(join(out, "python", "pulumi_forge"), /`/)).toEqual([]);
  expect(read("python", "pulumi_forge", "cluster_agent_token.py")).toContain("`ClusterAgent.agent_id`");
  expect(read("go", "forge", "clusterAgentToken.go")).toContain("`ClusterAgent.AgentId`");
  expect(read("python", "pulumi_forge", "cluster_agent_token.py")).toContain("`delete_before_replace` resource option");
  expect(read("go", "forge", "clusterAgentToken.go")).toContain("`pulumi.DeleteBeforeReplace` resource option");
});

it("the Python SDK installs beside pulumi from PyPI, registers the plugin's tokens and inputs, and answers typed outputs", async () => {
  const { stdout } = await run(python, [join(REPO_ROOT, "test", "e2e", "sdk-check.py")], { cwd: out });
  const report = JSON.parse(stdout) as {
    seen: { type: string; inputs: Record<string, unknown> }[];
    calls: { token: string; args: object }[];
    labelId: number;
    group: object;
    typed: Record<string, string>;
  };
  // Registrations run concurrently: in either order.
  expect([...report.seen].sort((a, b) => a.type.localeCompare(b.type))).toEqual([
    { name: "prod", type: "forge:index:ClusterAgent", inputs: { project: "acme/web", name: "production" } },
    { name: "token", type: "forge:index:ClusterAgentToken", inputs: { project: "acme/web", agentId: 3, name: "primary" } },
    { name: "bug", type: "forge:index:GroupLabel", inputs: { group: "acme", name: "type::bug", color: "red" } },
    { name: "settings", type: "forge:index:GroupSettings", inputs: { group: "acme" } },
    { name: "jane", type: "forge:index:ProjectMember", inputs: { project: "acme/web", user: "jane", accessLevel: 40 } },
  ]);
  expect(report.calls).toEqual([{ token: "forge:index:getGroup", args: { group: "acme" } }]);
  expect(report.labelId).toBe(7);
  expect(report.group).toMatchObject({ fullPath: "acme" });
  // Whole numbers are ints (they were floats: 1.0), an absent parent None, a granted level its enum.
  expect(report.typed).toEqual({
    createdByUserId: "int 5",
    groupId: "int 12",
    parentId: "NoneType None",
    grantedAccessLevel: "ProjectMemberAccessLevel ProjectMemberAccessLevel.DEVELOPER",
  });
}, 600_000);

it("the sample Python program type-checks with mypy --strict; a plain value where an enum is declared does not", async () => {
  const checked = await run(
    python,
    ["-m", "mypy", "--strict", "--no-error-summary", "--cache-dir", MYPY_CACHE, join(PROGRAMS, "python", "__main__.py")],
    {
      cwd: out,
    },
  ).then(
    () => "",
    (error: { stdout: string }) => error.stdout,
  );
  expect(checked).toBe("");
  // What the guide says: in Python, use the enum (or its constructor), not the plain value.
  const plain = join(out, "plain.py");
  writeFileSync(plain, 'import pulumi_forge as forge\n\nforge.ProjectMember("m", project="acme/web", user="jane", access_level=40)\n');
  const rejected = await run(python, ["-m", "mypy", "--no-error-summary", "--cache-dir", MYPY_CACHE, plain], { cwd: out }).then(
    () => "",
    (error: { stdout: string }) => error.stdout,
  );
  expect(rejected).toContain('No overload variant of "ProjectMember"');
}, 600_000);

it("the sample Go program, in a module made by the guide's recipe verbatim, vets clean", async () => {
  const { goMod } = goRecipe();
  expect(goMod).toContain(`require ${GO_MODULE} v${version}\n`);
  const dir = join(out, "go-program");
  await goProgram(out, dir);
  // Type-checks the program and the SDK (the languages layer builds and runs it).
  await run("go", ["vet", "./..."], { cwd: dir, env: GO_ENV, ...BUFFER });
  const sdk = join(dir, "forge-sdk");
  const { stdout } = await run("go", ["doc", "./forge", "GroupLabel"], { cwd: sdk, env: GO_ENV });
  expect(stdout).toContain("type GroupLabel struct");
  expect(stdout).toContain("pulumi import forge:index:GroupLabel");
  // The schema's enums are typed constants: the access levels by the API's role names.
  const levels = await run("go", ["doc", "./forge", "ProjectMemberAccessLevelMaintainer"], { cwd: sdk, env: GO_ENV });
  expect(levels.stdout).toMatch(/ProjectMemberAccessLevelMaintainer\s+= ProjectMemberAccessLevel\(40\)/);
  // A read of an existing object filters by its state: the State struct has every property.
  const state = await run("go", ["doc", "./forge", "ProjectMemberState"], { cwd: sdk, env: GO_ENV });
  expect(state.stdout).toMatch(/GrantedAccessLevel\s+ProjectMemberAccessLevelPtrInput/);
  // A group's parent is null for a top-level group: a pointer, not a zero value.
  const settings = await run("go", ["doc", "./forge", "GroupSettings"], { cwd: sdk, env: GO_ENV });
  expect(settings.stdout).toMatch(/ParentId\s+pulumi\.IntPtrOutput/);
}, 900_000);
