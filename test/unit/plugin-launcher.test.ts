/**
 * The plugin's launcher (plugin/pulumi-resource-forge) and the plugin's own check of its Node
 * (provider/plugin/node-version.ts): a Node too old, or none, is named with the way out, and
 * the launcher starts no second process to find out.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
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
