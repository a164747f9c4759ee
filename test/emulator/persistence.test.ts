import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startEmulator } from "../../emulator";
import { call } from "./helpers";

const directories: string[] = [];
afterEach(() => {
  for (const dir of directories.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function stateFile(): { dir: string; path: string } {
  const dir = mkdtempSync(join(tmpdir(), "forge-emulator-"));
  directories.push(dir);
  return { dir, path: join(dir, "state.json") };
}

describe("state file", () => {
  it("persists after each mutation and loads on the next start, ids included", async () => {
    const { dir, path } = stateFile();
    const first = await startEmulator({ statePath: path });
    const label = await call(first.url, "POST", "/groups/acme/labels", { as: "max", json: { name: "kept", color: "red" } });
    await first.close();
    expect(JSON.parse(readFileSync(path, "utf8")).labels).toHaveLength(1);
    expect(readdirSync(dir)).toEqual(["state.json"]); // the temporary file was renamed away

    const second = await startEmulator({ statePath: path });
    const read = await call(second.url, "GET", "/groups/acme/labels/kept", { as: "max" });
    expect(read.body.id).toBe(label.body.id);
    const next = await call(second.url, "POST", "/groups/acme/labels", { as: "max", json: { name: "new", color: "red" } });
    expect(next.body.id).toBe(label.body.id + 1);
    await second.close();
  });

  it("writes the seed when the file does not exist yet, and reset is persisted", async () => {
    const { path } = stateFile();
    const emulator = await startEmulator({ statePath: path });
    expect(JSON.parse(readFileSync(path, "utf8")).users).toHaveLength(7);
    await call(emulator.url, "POST", "/groups/acme/labels", { as: "max", json: { name: "gone", color: "red" } });
    await emulator.admin("/reset", { method: "POST" });
    expect(JSON.parse(readFileSync(path, "utf8")).labels).toEqual([]);
    await emulator.close();
  });

  it("keeps the state file's keys, so that files written by earlier versions still load", async () => {
    const { path } = stateFile();
    const emulator = await startEmulator({ statePath: path });
    await emulator.close();
    // The keys of earlier versions stay, in their order; resources added since come after them.
    const keys = Object.keys(JSON.parse(readFileSync(path, "utf8")));
    expect(keys.slice(0, 13)).toEqual([
      "format",
      "sequences",
      "settings",
      "users",
      "groups",
      "projects",
      "labels",
      "broadcastMessages",
      "clusterAgents",
      "agentTokens",
      "urlConfigurations",
      "jobTokenScopes",
      "protectedEnvironments",
    ]);
    expect(keys).toContain("featureFlagUserLists");
  });

  it("fills the collections and settings an older state file does not have", async () => {
    const { path } = stateFile();
    const seeded = await startEmulator({ statePath: path });
    await seeded.close();
    const { format, sequences, users, groups, projects } = JSON.parse(readFileSync(path, "utf8"));
    writeFileSync(path, JSON.stringify({ format, sequences, users, groups, projects, labels: [] }));

    const emulator = await startEmulator({ statePath: path });
    expect((await call(emulator.url, "GET", "/projects/acme%2Fweb/cluster_agents", { as: "max" })).body).toEqual([]);
    const agent = await call(emulator.url, "POST", "/projects/acme%2Fweb/cluster_agents", { as: "max", json: { name: "a" } });
    expect(agent.status).toBe(201);
    const settings = await emulator.admin("/settings");
    expect(await settings.json()).toEqual({
      job_token_scope_enforced: false,
      member_promotion_management: false,
      labels_archive: false,
      storage_move_ms: 1_000,
      storage_move_error: "",
      tier: "ultimate",
      offering: "self-managed",
      version: "17.11.0",
    });
    await emulator.close();
  });
});
