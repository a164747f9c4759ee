/**
 * The provider plugin as users install it, outside the repository, from what `npm run
 * plugin:build` and `npm run plugin:archive` make of the packed package:
 * - the executable's archive of this platform (`pulumi-resource-forge-v<version>-<os>-<arch>.tar.gz`),
 *   installed with `pulumi plugin install resource forge <version> --file <archive>` into a fresh
 *   PULUMI_HOME, run with a PATH that holds the Pulumi CLI and no `node` at all: a YAML program
 *   with no `plugins` block goes through up, a no-op preview, a refresh that catches a change
 *   made by hand, the up that repairs it, and destroy;
 * - `npm install pulumi-forge` with its optional dependency of this platform (the packed
 *   `pulumi-forge-<os>-<cpu>`, as the registry would give it): the package's launcher
 *   (`node_modules/pulumi-forge/plugin`, the TypeScript face's `plugins.providers` path) runs the
 *   executable, a YAML program on that path previews with no `node` on PATH, and
 *   FORGE_PLUGIN_RUNTIME=node runs the Node plugin instead;
 * - the Node archive (plugin-archive.sh, for platforms without an executable), installed: a preview.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedToken, startEmulator, type RunningEmulator } from "../../emulator";
import { cliProject, type CliProject } from "../e2e/cli-project";
import { PULUMI_ROOT, REPO_ROOT, skipEngineTests } from "../e2e/harness";
import { HOST_PLATFORM } from "../support/plugin-under-test";
import { createConsumerProject, packRepository, type PackedPackage, type PlatformPackage } from "./consumer-project";

const execFileAsync = promisify(execFile);
const { version } = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
/** npm's names of this platform, as the platform's package is named (pulumi-forge-linux-x64). */
const NPM_PLATFORM = { os: process.platform === "win32" ? "win32" : process.platform, cpu: process.arch };

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
  let nodeArchive: string;
  let consumer: string;
  /** A folder of the tools a user's machine has besides the CLI: no `node` among them. */
  let noNode: string;
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
  const api = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    const response = await fetch(`${emulator.url}/api/v4${path}`, {
      ...init,
      headers: { "PRIVATE-TOKEN": seedToken("root"), "Content-Type": "application/json" },
    });
    return (await response.json()) as T;
  };
  const labels = () => api<{ id: number; name: string; color: string }[]>("/groups/acme/labels");

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    tmp = mkdtempSync(join(tmpdir(), "forge-plugin-install-"));
    const packed = await packRepository(tmp);
    const env = { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env["PATH"] ?? ""}` };
    // Into a directory of this test's: the executable the other layers run stays as it is.
    const out = join(tmp, "plugin");
    const built = await execFileAsync("bash", [join(REPO_ROOT, "scripts", "plugin-build.sh"), "--out", out, HOST_PLATFORM], {
      env,
      maxBuffer: 16 * 1024 * 1024,
    });
    archive = built.stdout.trim().split("\n").pop()!;
    // pulumi-forge as published (naming the five platforms' packages as optional dependencies), and
    // this platform's package: npm installs it alone, and skips the others (their os and cpu differ).
    const npmDir = join(out, "npm");
    const published = join(npmDir, `pulumi-forge-${version}.tgz`);
    const manifest = JSON.parse(
      (await execFileAsync("tar", ["xzOf", published, "package/package.json"])).stdout,
    ) as PackedPackage["manifest"];
    manifest.integrity = `sha512-${createHash("sha512").update(readFileSync(published)).digest("base64")}`;
    const platforms: PlatformPackage[] = Object.keys(manifest.optionalDependencies ?? {}).map((name) => {
      const [os, cpu] = name.slice("pulumi-forge-".length).split("-") as [string, string];
      return { name, version, tarball: join(npmDir, `${name}-${version}.tgz`), os: [os], cpu: [cpu] };
    });
    expect(platforms.map((platform) => platform.name)).toContain(`pulumi-forge-${NPM_PLATFORM.os}-${NPM_PLATFORM.cpu}`);
    consumer = join(tmp, "consumer");
    await createConsumerProject(consumer, { tarball: published, files: [], manifest }, [], platforms);
    const made = await execFileAsync("bash", [join(REPO_ROOT, "scripts", "plugin-archive.sh"), packed.tarball, join(tmp, "out")], {
      env,
      maxBuffer: 16 * 1024 * 1024,
    });
    nodeArchive = made.stdout.trim().split("\n").pop()!;
    // A PATH of two folders: the CLI's (the CLI, its language hosts) and one of the few tools the
    // launcher of an npm install runs (a POSIX shell's uname and readlink), none of the machine's others.
    noNode = join(tmp, "tools");
    mkdirSync(noNode);
    for (const tool of ["sh", "uname", "readlink"]) {
      symlinkSync((await execFileAsync("sh", ["-c", `command -v ${tool}`])).stdout.trim(), join(noNode, tool));
    }
  }, 600_000);

  afterAll(async () => {
    await emulator?.close();
    for (const made of projects) made.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  const withoutNode = () => ({ PATH: [join(PULUMI_ROOT, "bin"), noNode].join(delimiter) });

  it("plugin:build makes the archive Pulumi's installer takes: the executable at its root, named for the platform", async () => {
    expect(archive).toMatch(new RegExp(`pulumi-resource-forge-v${version.replaceAll(".", "\\.")}-${HOST_PLATFORM}\\.tar\\.gz$`));
    const { stdout } = await execFileAsync("tar", ["tzf", archive]);
    expect(stdout.split("\n").filter(Boolean).sort()).toEqual(["LICENSE", "pulumi-resource-forge"]);
    expect(statSync(archive).size).toBeGreaterThan(10_000_000);
    // Nothing on the PATH the engine runs with finds a node.
    const found = await execFileAsync("/bin/sh", ["-c", "command -v node || echo none"], { env: withoutNode() });
    expect(found.stdout.trim()).toBe("none");
  });

  it("installed with pulumi plugin install --file and no node on PATH: up, a no-op preview, refresh catching drift, up repairing it, destroy", async () => {
    const installed = await project("forge-installed");
    await installed.ok(["plugin", "install", "resource", "forge", version, "--file", archive], withoutNode());
    const pluginDir = join(installed.work, "home", "plugins", `resource-forge-v${version}`);
    expect(readdirSync(pluginDir)).toContain("pulumi-resource-forge");
    expect(await installed.ok(["plugin", "ls"], withoutNode())).toMatch(
      new RegExp(`forge\\s+resource\\s+${version.replaceAll(".", "\\.")}`),
    );

    await installed.ok(["up", "--yes", "--skip-preview"], withoutNode());
    const made = (await labels()).find((label) => label.name === "forge-installed")!;
    expect(await installed.ok(["preview", "--expect-no-changes"], withoutNode())).toContain("unchanged");

    await api(`/groups/acme/labels/${made.id}`, { method: "PUT", body: JSON.stringify({ color: "#00FF00" }) });
    const refreshed = await installed.run(["refresh", "--yes", "--skip-preview", "--expect-no-changes"], withoutNode());
    expect(refreshed.code).not.toBe(0);
    expect(refreshed.output).toMatch(/forge:index:GroupLabel +label +update/);
    await installed.ok(["up", "--yes", "--skip-preview"], withoutNode());
    expect((await labels()).find((label) => label.id === made.id)!.color).toBe(made.color);

    await installed.ok(["destroy", "--yes", "--skip-preview"], withoutNode());
    expect((await labels()).map((label) => label.name)).not.toContain("forge-installed");
  }, 600_000);

  it("npm install pulumi-forge brings this platform's executable, and the package's launcher runs it; FORGE_PLUGIN_RUNTIME=node runs Node", async () => {
    const launcher = join(consumer, "node_modules", "pulumi-forge", "plugin", "pulumi-resource-forge");
    expect(existsSync(join(consumer, "node_modules", `pulumi-forge-${NPM_PLATFORM.os}-${NPM_PLATFORM.cpu}`, "pulumi-resource-forge"))).toBe(
      true,
    );
    // The executable says where its schema is; the Node plugin names the package's file.
    const executable = await execFileAsync(launcher, ["--help"], { env: withoutNode() });
    expect(executable.stdout).toContain("Its schema: `pulumi package get-schema");
    const onNode = await execFileAsync(launcher, ["--help"], { env: { ...process.env, FORGE_PLUGIN_RUNTIME: "node" } });
    expect(onNode.stdout).toContain("Its schema: provider/plugin/schema.json in the package");

    // The TypeScript face's path, from a YAML program here: found, started and checking inputs with no node on PATH.
    const byPath = await project("forge-by-path", join(consumer, "node_modules", "pulumi-forge", "plugin"));
    expect(await byPath.ok(["preview"], withoutNode())).toMatch(/\+ +forge:index:GroupLabel +label +create/);
  }, 600_000);

  it("the Node archive (platforms without an executable) installs and previews on the machine's Node", async () => {
    const installed = await project("forge-node-archive");
    await installed.ok(["plugin", "install", "resource", "forge", version, "--file", nodeArchive]);
    expect(await installed.ok(["preview"])).toMatch(/\+ +forge:index:GroupLabel +label +create/);
  }, 600_000);
});
