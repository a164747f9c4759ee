/**
 * A shifting page is not a deletion, through the real engine on both faces. A stack's
 * ten labels sit on page 2 of their group's listing, behind a hundred labels of a person's. The
 * provider reads the stack's labels through the shared listing; the emulator holds the request
 * for page 2 while the person deletes 15 of her labels and renames 5 to the end, so the stack's
 * labels slide onto page 1, which was read already, and are on no page the provider sees.
 * forge-drift, `pulumi refresh` and `pulumi preview --refresh` must each still find all ten:
 * no label reported gone, no state entry dropped, and nothing for the next `up` to do. The
 * same choreography at the contract layer, with more labels and several shifts, is in
 * test/contract/shifting-listings.test.ts.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { seedToken, startEmulator, type RunningEmulator } from "../../emulator";
import { cliProject, PLUGIN_DIR, type CliProject, type CliResult } from "../e2e/cli-project";
import { REPO_ROOT, skipEngineTests } from "../e2e/harness";

const DRIFT_BIN = join(REPO_ROOT, "dist", "cli", "forge-drift.js");
const FACES = ["ts", "yaml"] as const;
type Face = (typeof FACES)[number];

const HERS = Array.from({ length: 100 }, (_, index) => `a-hers-${String(index).padStart(3, "0")}`);
const OURS = Array.from({ length: 10 }, (_, index) => `b-ours-${index}`);

function program(face: Face): Record<string, string> {
  if (face === "ts") {
    const labels = OURS.map(
      (name) => `new forge.GroupLabel(${JSON.stringify(name)}, { group: "acme", name: ${JSON.stringify(name)}, color: "#FF0000" });`,
    );
    return {
      "Pulumi.yaml": "name: shifting-ts\nruntime: nodejs\n",
      "index.js": `const forge = require("pulumi-forge");\n${labels.join("\n")}\n`,
    };
  }
  const labels = OURS.map(
    (name) => `  ${name}:\n    type: forge:index:GroupLabel\n    properties: { group: acme, name: ${name}, color: "#FF0000" }`,
  );
  return {
    "Pulumi.yaml": `name: shifting-yaml\nruntime: yaml\nplugins:\n  providers:\n    - name: forge\n      path: ${PLUGIN_DIR}\nresources:\n${labels.join("\n")}\n`,
  };
}

/** One face's forge, stack and the person's labels. */
class Scene {
  private constructor(
    readonly emulator: RunningEmulator,
    readonly project: CliProject,
  ) {}

  static async start(face: Face): Promise<Scene> {
    const emulator = await startEmulator({ port: 0 });
    const project = await cliProject({
      name: `shifting-${face}`,
      from: program(face),
      nodeModules: face === "ts",
      config: { "forge:baseUrl": { value: emulator.url }, "forge:token": { value: seedToken("root"), secret: true } },
    });
    const scene = new Scene(emulator, project);
    for (const name of HERS) await scene.api("POST", "/groups/acme/labels", { name, color: "#0000FF" });
    await project.ok(["up", "--yes", "--skip-preview"]);
    return scene;
  }

  async api<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.emulator.url}${path.startsWith("/__") ? "" : "/api/v4"}${path}`, {
      method,
      headers: { "PRIVATE-TOKEN": seedToken("root"), "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (response.status === 204 ? undefined : await response.json()) as T;
  }

  async labels(): Promise<{ id: number; name: string }[]> {
    const found: { id: number; name: string }[] = [];
    for (let page = 1; ; page += 1) {
      const items = await this.api<{ id: number; name: string }[]>("GET", `/groups/acme/labels?per_page=100&page=${page}`);
      found.push(...items);
      if (items.length < 100) return found;
    }
  }

  /**
   * Runs `command` while the forge holds page 2 of acme's labels; once it is held, the person
   * deletes 15 of her labels and renames 5 to the end of the listing, then the page goes on.
   * Her labels are put back afterwards, for the next command.
   */
  async duringShift<T>(command: () => Promise<T>): Promise<T> {
    const { id } = await this.api<{ id: number }>("POST", "/__emulator/faults", {
      method: "GET",
      path: "^/groups/acme/labels$",
      query: { page: 2 },
      latencyMs: 600_000,
      times: 1,
    });
    const running = command();
    while ((await this.api<{ held: number }>("GET", "/__emulator/faults")).held === 0) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const hers = (await this.labels()).filter((label) => label.name.startsWith("a-hers-"));
    for (const label of hers.slice(0, 15)) await this.api("DELETE", `/groups/acme/labels/${label.id}`);
    for (const label of hers.slice(15, 20)) await this.api("PUT", `/groups/acme/labels/${label.id}`, { new_name: `zz-${label.name}` });
    await this.api("DELETE", `/__emulator/faults/${id}`);
    const result = await running;
    const now = await this.labels();
    for (const name of HERS) {
      if (now.some((label) => label.name === name)) continue;
      const renamed = now.find((label) => label.name === `zz-${name}`);
      if (renamed) await this.api("PUT", `/groups/acme/labels/${renamed.id}`, { new_name: name });
      else await this.api("POST", "/groups/acme/labels", { name, color: "#0000FF" });
    }
    return result;
  }

  drift(): Promise<CliResult> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        [DRIFT_BIN, "--cwd", this.project.dir, "--stack", "test", "--format", "json"],
        { env: this.project.env },
        (error, stdout, stderr) =>
          resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, output: `${stdout}${stderr}` }),
      );
    });
  }

  async close(): Promise<void> {
    this.project.close();
    await this.emulator.close();
  }
}

describe.skipIf(skipEngineTests())("a shifting page is not a deletion, on both faces", () => {
  for (const face of FACES) {
    it.concurrent(
      `${face}: forge-drift, refresh and preview --refresh all find the stack's labels that slid onto a page already read`,
      async () => {
        const scene = await Scene.start(face);
        try {
          const stackLabels = async () =>
            (await scene.project.resources())
              .filter((resource) => /GroupLabel$/.test(resource.type))
              .map((resource) => resource.urn.split("::").pop())
              .sort();
          expect(await stackLabels()).toEqual(OURS);

          const drift = await scene.duringShift(() => scene.drift());
          expect(drift.code, drift.output).toBe(0);
          expect(JSON.parse(drift.stdout)).toMatchObject({ drifted: [] });

          const refreshed = await scene.duringShift(() => scene.project.run(["refresh", "--yes", "--skip-preview"]));
          expect(refreshed.code, refreshed.output).toBe(0);
          expect(refreshed.output).not.toMatch(/deleted/);
          expect(await stackLabels()).toEqual(OURS);

          // What the next `up` would do: nothing.
          const previewed = await scene.duringShift(() => scene.project.run(["preview", "--refresh", "--expect-no-changes"]));
          expect(previewed.code, previewed.output).toBe(0);
        } finally {
          await scene.close();
        }
      },
      600_000,
    );
  }
});
