/**
 * The provider plugin as users install it, outside the repository: the archive that
 * `npm run plugin:archive` makes (scripts/plugin-archive.sh) from the packed package, installed with
 * `pulumi plugin install resource forge <version> --file <archive>` into a fresh PULUMI_HOME, then
 * a Pulumi YAML program with no `plugins` block (the engine finds the installed plugin) and one
 * whose `plugins.providers` path names an npm-installed package's plugin directory
 * (`node_modules/pulumi-forge/plugin`, the layout `npm install pulumi-forge` gives): up, a no-op
 * preview and destroy of the first, a preview of the second, against the emulator.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedToken, startEmulator, type RunningEmulator } from "../../emulator";
import { cliProject, type CliProject } from "../e2e/cli-project";
import { REPO_ROOT, skipEngineTests } from "../e2e/harness";
import { packRepository } from "./consumer-project";

const execFileAsync = promisify(execFile);

const labelProgram = (name: string, pluginPath?: string) =>
  [
    `name: ${name}`,
    "runtime: yaml",
    ...(pluginPath ? ["plugins:", "  providers:", "    - name: forge", `      path: ${pluginPath}`] : []),
    "resources:",
    "  label:",
    "    type: forge:index:GroupLabel",
    "    properties:",
    "      group: acme",
    `      name: ${name}`,
    "      color: teal",
    "outputs:",
    "  labelId: ${label.labelId}",
    "",
  ].join("\n");

describe.skipIf(skipEngineTests())("the provider plugin installed as users install it", () => {
  let emulator: RunningEmulator;
  let tmp: string;
  let archive: string;
  const projects: CliProject[] = [];

  const project = async (name: string, pluginPath?: string) => {
    const made = await cliProject({
      name,
      from: { "Pulumi.yaml": labelProgram(name, pluginPath) },
      config: { "forge:baseUrl": { value: emulator.url }, "forge:token": { value: seedToken("root"), secret: true } },
    });
    projects.push(made);
    return made;
  };
  const labelNames = async () => {
    const response = await fetch(`${emulator.url}/api/v4/groups/acme/labels`, { headers: { "PRIVATE-TOKEN": seedToken("root") } });
    return ((await response.json()) as { name: string }[]).map((label) => label.name);
  };

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    tmp = mkdtempSync(join(tmpdir(), "forge-plugin-archive-"));
    const packed = await packRepository(tmp);
    const { stdout } = await execFileAsync("bash", [join(REPO_ROOT, "scripts", "plugin-archive.sh"), packed.tarball, join(tmp, "out")], {
      env: { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env["PATH"] ?? ""}` },
      maxBuffer: 16 * 1024 * 1024,
    });
    archive = stdout.trim().split("\n").pop()!;
  }, 300_000);

  afterAll(async () => {
    await emulator?.close();
    for (const made of projects) made.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it("plugin:archive makes one archive with the launcher at its root", () => {
    expect(archive).toMatch(/pulumi-resource-forge-v\d+\.\d+\.\d+\.tar\.gz$/);
    expect(statSync(archive).size).toBeGreaterThan(1_000_000);
  });

  it("pulumi plugin install --file installs it, and a YAML program without a plugins block uses it", async () => {
    const installed = await project("forge-installed");
    const { version } = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
    await installed.ok(["plugin", "install", "resource", "forge", version, "--file", archive]);
    const pluginDir = join(installed.work, "home", "plugins", `resource-forge-v${version}`);
    expect(readdirSync(pluginDir)).toContain("pulumi-resource-forge");
    expect(await installed.ok(["plugin", "ls"])).toMatch(new RegExp(`forge\\s+resource\\s+${version.replaceAll(".", "\\.")}`));

    await installed.ok(["up", "--yes", "--skip-preview"]);
    expect(await labelNames()).toContain("forge-installed");
    await installed.ok(["preview", "--expect-no-changes"]);

    // The same layout as `npm install pulumi-forge` in a project: node_modules/pulumi-forge/plugin.
    const npmLayout = join(pluginDir, "node_modules", "pulumi-forge", "plugin");
    expect(existsSync(join(npmLayout, "pulumi-resource-forge"))).toBe(true);
    // A preview starts the plugin and checks the program's inputs: found by the path.
    const byPath = await project("forge-by-path", npmLayout);
    expect(await byPath.ok(["preview"])).toMatch(/\+ +forge:index:GroupLabel +label +create/);

    await installed.ok(["destroy", "--yes", "--skip-preview"]);
    expect(await labelNames()).toEqual([]);
  }, 600_000);
});
