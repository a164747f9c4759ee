/**
 * `forge-drift --stacks-file` checks each stack from its exported state, in-process
 * (cli/fleet-exports.ts), and finds what a refresh per stack finds (`--per-stack-refresh`, each
 * stack's own `pulumi refresh --preview-only`). Two stacks of one project, one per face (the
 * dynamic classes, and the plugin from TypeScript), each with the fixtures' every kind of drift:
 * a plain field and a secret field of a label changed by hand, a label deleted, a field the
 * program never set changed (not drift), a member's role changed (with the level granted named
 * apart), a secret nested attribute of a cluster changed (masked), a snippet's title changed, and
 * an agent token (a secret output) left alone. Both ways give the same report (the text and
 * markdown formats are written from it) and exit status; neither prints a secret nor writes a state.
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FleetReport } from "../../cli/fleet";
import { seedToken, startEmulator, type RunningEmulator } from "../../emulator";
import { cliProject, PLUGIN_DIR, rootApi, type CliProject } from "../e2e/cli-project";
import { REPO_ROOT, skipEngineTests } from "../e2e/harness";

const DRIFT_BIN = join(REPO_ROOT, "dist", "cli", "forge-drift.js");
const DESCRIPTION = "equivalence-secret-description-7f1a";
const BY_HAND = "equivalence-by-hand-description-0c3e";
const CLUSTER_TOKEN = "equivalence-cluster-token-93b2";
const CA = "-----BEGIN CERTIFICATE-----\nMIIBequivalence\n-----END CERTIFICATE-----";
const NEW_CA = "-----BEGIN CERTIFICATE-----\nMIIBbyhandequivalence\n-----END CERTIFICATE-----";
/** Each stack: its face, the prefix of its objects' names, and the project of its member. */
const STACKS = { test: { face: "dynamic", project: "acme/web" }, plug: { face: "plugin", project: "acme/api" } } as const;

const program = `const pulumi = require("@pulumi/pulumi");
const config = new pulumi.Config();
const forge = require(config.require("face") === "plugin" ? "pulumi-forge/plugin" : "pulumi-forge");
const p = pulumi.getStack();
new forge.GroupLabel("changed", { group: "acme", name: p + "-changed", color: "#FF0000", description: config.requireSecret("description") });
new forge.GroupLabel("deleted", { group: "acme", name: p + "-deleted", color: "#00FF00" });
new forge.GroupLabel("quiet", { group: "acme", name: p + "-quiet", color: "#00FFFF" });
new forge.ProjectMember("member", { project: config.require("memberProject"), user: "nomad", accessLevel: 30 });
new forge.InstanceCluster("cluster", { name: p + "-cluster", platformVendorAttributes: { apiUrl: "https://k8s.equivalence.example", token: config.requireSecret("clusterToken"), caCert: config.requireSecret("ca") } });
new forge.Snippet("notes", { title: p + "-notes", visibility: "private", files: [{ filePath: "a.md", content: "hello\\n" }] });
const agent = new forge.ClusterAgent("agent", { project: config.require("memberProject"), name: p + "-agent" });
new forge.ClusterAgentToken("token", { project: config.require("memberProject"), agentId: agent.agentId, name: "primary" });
`;

describe.skipIf(skipEngineTests())("forge-drift over a fleet: from the exported states, as a refresh per stack", () => {
  let emulator: RunningEmulator;
  let project: CliProject;

  const api = rootApi(() => emulator.url);
  const drift = (...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [DRIFT_BIN, "--stacks-file", join(project.work, "fleet.yaml"), ...args],
        { env: project.env, cwd: project.dir, maxBuffer: 16 * 1024 * 1024 },
        (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr }),
      );
    }).then((run) => {
      for (const secret of [DESCRIPTION, BY_HAND, CLUSTER_TOKEN, "MIIB", "k8s.equivalence.example", seedToken("root")])
        expect(`${run.stdout}\n${run.stderr}`, "a secret in the output").not.toContain(secret);
      return run;
    });
  /** The report without what differs from run to run (times). */
  const answers = (report: FleetReport) => ({ summary: report.summary, stacks: report.stacks.map(({ durationMs: _, ...entry }) => entry) });

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    project = await cliProject({
      name: "fleet-equivalence",
      nodeModules: true,
      from: {
        "Pulumi.yaml": `name: forge-fleet-equivalence\nruntime: nodejs\nplugins:\n  providers:\n    - name: forge\n      path: ${PLUGIN_DIR}\n`,
        "index.js": program,
      },
    });
    await project.ok(["stack", "init", "plug"]);
    for (const [stack, { face, project: memberProject }] of Object.entries(STACKS)) {
      await project.ok([
        "config",
        "set-all",
        "--stack",
        stack,
        "--plaintext",
        `forge:baseUrl=${emulator.url}`,
        "--secret",
        `forge:token=${seedToken("root")}`,
        "--plaintext",
        `face=${face}`,
        "--plaintext",
        `memberProject=${memberProject}`,
        "--secret",
        `description=${DESCRIPTION}`,
        "--secret",
        `clusterToken=${CLUSTER_TOKEN}`,
        "--secret",
        `ca=${CA}`,
      ]);
    }
    await Promise.all(Object.keys(STACKS).map((stack) => project.ok(["up", "--yes", "--skip-preview", "--stack", stack])));
    writeFileSync(
      join(project.work, "fleet.yaml"),
      Object.keys(STACKS)
        .map((stack) => `- { stack: ${stack}, cwd: ${JSON.stringify(project.dir)} }\n`)
        .join(""),
    );
  }, 600_000);
  afterAll(async () => {
    await emulator?.close();
    project?.close();
  });

  it("reports the same drift of every kind on both faces as a refresh per stack, masked, and writes no state", async () => {
    const labels = await api<{ id: number; name: string }[]>("GET", "/groups/acme/labels?per_page=100");
    const labelId = (name: string) => labels.find((label) => label.name === name)!.id;
    const snippets = await api<{ id: number; title: string }[]>("GET", "/snippets");
    for (const [stack, { project: memberProject }] of Object.entries(STACKS)) {
      await api("PUT", `/groups/acme/labels/${labelId(`${stack}-changed`)}`, { color: "#0000FF", description: BY_HAND });
      await api("DELETE", `/groups/acme/labels/${labelId(`${stack}-deleted`)}`);
      await api("PUT", `/groups/acme/labels/${labelId(`${stack}-quiet`)}`, { description: "never set by the program" });
      const nomad = (await api<{ id: number; username: string }[]>("GET", "/users?username=nomad"))[0]!;
      await api("PUT", `/projects/${encodeURIComponent(memberProject)}/members/${nomad.id}`, { access_level: 40 });
      const cluster = (await api<{ id: number; name: string }[]>("GET", "/admin/clusters")).find(
        (candidate) => candidate.name === `${stack}-cluster`,
      )!;
      await api("PUT", `/admin/clusters/${cluster.id}`, { platform_vendor_attributes: { ca_cert: NEW_CA } });
      await api("PUT", `/snippets/${snippets.find((snippet) => snippet.title === `${stack}-notes`)!.id}`, {
        title: `${stack}-notes renamed`,
      });
    }
    const before = await project.run(["stack", "export", "--stack", "plug"]);

    const [exported, refreshed] = [await drift("--format", "json"), await drift("--format", "json", "--per-stack-refresh")];
    for (const run of [exported, refreshed]) expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(2);
    const [fast, slow] = [JSON.parse(exported.stdout) as FleetReport, JSON.parse(refreshed.stdout) as FleetReport];
    expect(answers(fast)).toEqual(answers(slow));
    expect(fast.summary).toEqual({ stacks: 2, clean: 0, drift: 2, error: 0, locked: 0, timeout: 0 });
    // Every kind, on each face: what a refresh reports, as cli/drift.ts words it.
    for (const entry of fast.stacks) {
      const byName = Object.fromEntries(entry.drifted.map((resource) => [resource.name, resource]));
      expect(Object.keys(byName).sort(), entry.stack).toEqual(["changed", "cluster", "deleted", "member", "notes"]);
      expect(byName["changed"]!.fields).toEqual([
        { field: "color", program: "#FF0000", forge: "#0000FF" },
        { field: "description", program: "[secret]", forge: "[secret]" },
      ]);
      expect(byName["deleted"]).toMatchObject({ drift: "deleted", fields: [] });
      expect(byName["member"]!.fields).toEqual([{ field: "accessLevel", program: 30, forge: 40 }]);
      expect(byName["member"]!.alsoChanged).toContain("grantedAccessLevel");
      expect(byName["cluster"]!.fields).toEqual([{ field: "platformVendorAttributes", program: "[secret]", forge: "[secret]" }]);
      expect(byName["notes"]!.fields.map((field) => field.field)).toEqual(["title"]);
    }
    expect(fast.stacks.map((entry) => entry.drifted[0]!.type)).toEqual([
      "pulumi-nodejs:dynamic/forge:GroupLabel",
      "forge:index:GroupLabel",
    ]);
    expect((await project.run(["stack", "export", "--stack", "plug"])).stdout).toBe(before.stdout);
  }, 300_000);
});
