/**
 * The plugin's launcher (plugin/pulumi-resource-forge) and the plugin's own check of its Node
 * (provider/plugin/node-version.ts): a Node too old, or none, is named with the way out, and
 * the launcher starts no second process to find out. In an npm install, the launcher runs the
 * platform's executable (pulumi-forge-<os>-<cpu>) when it is there, and Node otherwise.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { supportedNode } from "../../provider/plugin/node-version";
import { REPO_ROOT } from "../support/pulumi-paths";

const LAUNCHER = join(REPO_ROOT, "plugin", "pulumi-resource-forge");

function launch(node: string) {
  const run = spawnSync(LAUNCHER, ["--help"], { encoding: "utf8", env: { ...process.env, FORGE_PLUGIN_NODE: node } });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** This machine's system Node, when it is older than the plugin supports (these machines keep Node 20 there). */
const OLD_NODE = ["/usr/bin/node", "/bin/node"]
  .map((path) => ({ path, version: spawnSync(path, ["-p", "process.versions.node"], { encoding: "utf8" }).stdout?.trim() }))
  .find(({ version }) => version && !supportedNode(version));

describe("the plugin's Node", () => {
  it("is 22.19 or newer, the oldest package.json's engines names", () => {
    const { engines } = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { engines: { node: string } };
    expect(engines.node).toBe(">=22.19.0");
    expect(["22.19.0", "22.20.1", "23.0.0", "24.21.0", "30.1.0"].filter(supportedNode)).toHaveLength(5);
    expect(["22.18.9", "22.9.0", "20.20.2", "18.0.0", "", "x"].filter(supportedNode)).toEqual([]);
  });

  it("this Node runs the plugin through the launcher", () => {
    const run = launch(process.execPath);
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/^Usage: pulumi-resource-forge <engine address>/);
  });

  it("a missing Node is named, with the way out", () => {
    const run = launch("/nonexistent/node");
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /needs Node >= 22\.19 \(found: no \/nonexistent\/node on PATH\); put one first on PATH or set FORGE_PLUGIN_NODE/,
    );
  });

  it.skipIf(!OLD_NODE)("an older Node is named by its version and path, before the plugin loads anything that needs a newer one", () => {
    const run = launch(OLD_NODE!.path);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      `pulumi-resource-forge: needs Node >= 22.19 (found: v${OLD_NODE!.version} at ${OLD_NODE!.path}); put one first on PATH or set FORGE_PLUGIN_NODE to its path\n`,
    );
  });
});

/** An npm layout in a temporary directory: pulumi-forge's launcher, and the platform packages given (each an executable that says its name). */
function npmLayout(platforms: string[], nested = false): { launcher: string; close(): void } {
  const root = mkdtempSync(join(tmpdir(), "forge-launcher-"));
  const pkg = join(root, "node_modules", "pulumi-forge");
  mkdirSync(join(pkg, "plugin"), { recursive: true });
  copyFileSync(LAUNCHER, join(pkg, "plugin", "pulumi-resource-forge"));
  chmodSync(join(pkg, "plugin", "pulumi-resource-forge"), 0o755);
  // The Node plugin of the package is this checkout's build.
  symlinkSync(join(REPO_ROOT, "dist"), join(pkg, "dist"));
  for (const platform of platforms) {
    const dir = nested ? join(pkg, "node_modules", `pulumi-forge-${platform}`) : join(root, "node_modules", `pulumi-forge-${platform}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "pulumi-resource-forge"), `#!/bin/sh\necho "executable ${platform} $*"\n`, { mode: 0o755 });
  }
  return { launcher: join(pkg, "plugin", "pulumi-resource-forge"), close: () => rmSync(root, { recursive: true, force: true }) };
}

/** npm's name of this machine's platform, as the launcher picks it. */
const HOST = `${process.platform}-${process.arch}`;

describe.skipIf(process.platform === "win32")("the launcher in an npm install", () => {
  const run = (launcher: string, env: Record<string, string> = {}) =>
    spawnSync(launcher, ["--help"], { encoding: "utf8", env: { ...process.env, FORGE_PLUGIN_NODE: process.execPath, ...env } });

  it.each([
    ["beside pulumi-forge", false],
    ["inside pulumi-forge's node_modules", true],
  ])("runs this platform's executable when npm installed it %s, and Node with FORGE_PLUGIN_RUNTIME=node", (_where, nested) => {
    const layout = npmLayout([HOST], nested);
    try {
      expect(run(layout.launcher).stdout).toBe(`executable ${HOST} --help\n`);
      expect(run(layout.launcher, { FORGE_PLUGIN_RUNTIME: "node" }).stdout).toMatch(/^Usage: pulumi-resource-forge <engine address>/);
    } finally {
      layout.close();
    }
  });

  it("runs Node when the only platform package is another platform's (node_modules copied across machines)", () => {
    const other = HOST === "linux-x64" ? "darwin-arm64" : "linux-x64";
    const layout = npmLayout([other]);
    try {
      expect(run(layout.launcher).stdout).toMatch(/^Usage: pulumi-resource-forge <engine address>/);
    } finally {
      layout.close();
    }
  });

  it("follows a link to itself (npm's .bin, a program's own link)", () => {
    const layout = npmLayout([HOST]);
    const link = join(dirname(dirname(layout.launcher)), "..", "linked-launcher");
    try {
      symlinkSync(layout.launcher, link);
      expect(run(link).stdout).toBe(`executable ${HOST} --help\n`);
    } finally {
      layout.close();
    }
  });
});

describe("the platforms", () => {
  it("are the same five in the build script, the launchers and the docs", () => {
    const build = readFileSync(join(REPO_ROOT, "scripts", "plugin-build.sh"), "utf8");
    expect(build).toContain("ALL=(linux-amd64 linux-arm64 darwin-amd64 darwin-arm64 windows-amd64)");
    const launcher = readFileSync(LAUNCHER, "utf8");
    for (const platform of ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64"]) expect(launcher).toContain(`platform=${platform}`);
    expect(readFileSync(`${LAUNCHER}.cmd`, "utf8")).toContain("pulumi-forge-win32-x64\\pulumi-resource-forge.exe");
    const docs = readFileSync(join(REPO_ROOT, "docs", "installation-configuration.md"), "utf8");
    for (const name of ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "win32-x64"])
      expect(docs).toContain(`pulumi-forge-${name}`);
  });
});
