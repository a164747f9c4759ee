/**
 * `forge-recover`: a pipeline killed mid-run leaves pending creates; the recovery imports what
 * those creates made (proven), clears what never happened, deletes what a later run made twice,
 * and leaves to the user what it cannot prove. The decision rules on hand-built cases, then the
 * real CLI killed during an `up` whose creates are slow.
 */
import { execFile, spawn } from "node:child_process";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLOCK_MARGIN_MS, decide, type PendingCreate, type RecoveryPlan } from "../../cli/recover";
import { skipEngineTests, PULUMI_ROOT, REPO_ROOT, startE2eWorld, type E2eWorld, type TestStack } from "../e2e/harness";

const RECOVER_BIN = join(REPO_ROOT, "dist", "cli", "forge-recover.js");
const emptyPlan = (): RecoveryPlan => ({ imports: [], clears: [], orphans: [], undecided: [] });
const pending = (urn: string, inputs: Record<string, unknown> = {}, inState = false): PendingCreate => ({ urn, type: "Snippet", inputs: { title: "t", __createdAfter: "2026-01-01T00:00:10Z", ...inputs }, inState });

describe("forge-recover's decisions", () => {
  it("imports the object of a unique identity no resource holds, and clears a create that made nothing", () => {
    const plan = emptyPlan();
    decide([{ ...pending("a"), type: "GroupLabel" }], "identity", [{ id: "acme:1" }], new Set(), plan);
    decide([{ ...pending("b"), type: "GroupLabel" }], "identity", [], new Set(), plan);
    decide([{ ...pending("c"), type: "GroupLabel" }], "identity", [{ id: "acme:3" }], new Set(["GroupLabel acme:3"]), plan);
    expect(plan).toEqual({ imports: [{ urn: "a", id: "acme:1" }], clears: ["b", "c"], orphans: [], undecided: [] });
  });

  it("takes only objects made after the claim for kinds nothing identifies; one made by hand before is never a candidate", () => {
    const plan = emptyPlan();
    const candidates = [
      { id: "1", createdAt: "2025-12-31T00:00:00Z" }, // made by hand the day before
      { id: "2", createdAt: "2026-01-01T00:00:11Z" },
    ];
    decide([pending("a")], "newer", candidates, new Set(), plan);
    expect(plan.imports).toEqual([{ urn: "a", id: "2" }]);
    const none = emptyPlan();
    decide([pending("a")], "newer", [candidates[0]!], new Set(), none);
    expect(none).toMatchObject({ imports: [], clears: ["a"] });
  });

  it("deletes what this stack made twice (a later up made the resource again), and leaves to the user what it cannot prove", () => {
    const plan = emptyPlan();
    decide([pending("a", {}, true)], "newer", [{ id: "2", createdAt: "2026-01-01T00:00:11Z" }, { id: "3", createdAt: "2026-01-01T00:01:00Z" }], new Set(["Snippet 3"]), plan);
    expect(plan).toMatchObject({ imports: [], clears: ["a"], orphans: [{ type: "Snippet", id: "2" }] });
    const keys = emptyPlan();
    decide([{ ...pending("k"), type: "ErrorTrackingClientKey" }], "newer", [{ id: "acme/web:5" }], new Set(), keys);
    expect(keys.undecided).toEqual([expect.objectContaining({ urns: ["k"], candidates: [{ id: "acme/web:5" }] })]);
    const crowded = emptyPlan();
    decide([pending("a")], "newer", [{ id: "2", createdAt: "2026-01-01T00:00:11Z" }, { id: "3", createdAt: "2026-01-01T00:00:12Z" }], new Set(), crowded);
    expect(crowded.undecided).toHaveLength(1);
    expect(crowded.imports).toEqual([]);
  });
});

describe.skipIf(skipEngineTests())("forge-recover after a killed pulumi up", () => {
  let world: E2eWorld;
  let stack: TestStack;
  beforeAll(async () => {
    world = await startE2eWorld();
    stack = await world.stack("resources", "killed");
  }, 120_000);
  afterAll(async () => world?.close());

  const recover = (...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [RECOVER_BIN, "--cwd", stack.workDir, "--stack", "killed", ...args], { env: { ...process.env, ...stack.env } }, (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr }),
      );
    });

  it("converges with no duplicate and nothing made by hand touched", async () => {
    // Made by hand before: a snippet of the same title as one the program declares.
    const theirs = (await world.api.request<{ id: number }>("POST", "/snippets", { title: "team-notes", files: [{ file_path: "theirs.md", content: "not yours\n" }] })).body.id;
    const before = JSON.stringify((await world.api.request("GET", "/snippets/:id", { id: theirs })).body);
    await sleep(CLOCK_MARGIN_MS + 500); // made before the run by more than the clocks' margin
    const labels = Array.from({ length: 6 }, (_, index) => ({ type: "GroupLabel", name: `label-${index}`, inputs: { group: "acme", name: `killed-${index}`, color: "red" } }));
    const snippets = ["team-notes", "runbook"].map((title) => ({ type: "Snippet", name: `snippet-${title}`, inputs: { title, files: [{ filePath: "a.md", content: `${title}\n` }] } }));
    await stack.declare([...labels, ...snippets]);
    for (const path of ["^/groups/[^/]+/labels$", "^/snippets$"]) {
      expect((await world.emulator.admin("/faults", { method: "POST", json: { method: "POST", path, latencyMs: 2500 } })).status).toBeLessThan(300);
    }

    // The pipeline is killed while the creates wait for their answers.
    const run = spawn(join(PULUMI_ROOT, "bin", "pulumi"), ["up", "--yes", "--skip-preview", "--non-interactive", "--stack", "killed"], {
      cwd: stack.workDir,
      env: { ...process.env, ...stack.env },
      detached: true,
      stdio: "ignore",
    });
    const started = Date.now();
    // The look-ups before the creates are logged at once; the creates themselves take 2.5 s.
    const lookedUp = async () => (await world.requests()).filter((request) => request.method === "GET" && /\/(labels|snippets)/.test(request.path)).length;
    while ((await lookedUp()) < labels.length + snippets.length && Date.now() - started < 60_000) await sleep(100);
    await sleep(800);
    process.kill(-run.pid!, "SIGKILL");
    await sleep(3500); // the forge finishes the requests it received
    await world.emulator.admin("/faults", { method: "DELETE" });
    const exported = (await stack.exportedState()) as { deployment: { pending_operations?: unknown[] } };
    expect(exported.deployment.pending_operations?.length ?? 0).toBeGreaterThan(0);
    // The lock a killed run leaves (file backend) is removed as `pulumi cancel` would.
    await stack.cli("cancel", "--yes").catch(() => undefined);

    const recovered = await recover();
    expect(recovered.stderr, recovered.stdout).toBe("");
    expect(recovered.code, `${recovered.stdout}\n${recovered.stderr}`).toBe(0);
    expect(recovered.stdout).toMatch(/import {2}/);
    expect(((await stack.exportedState()) as { deployment: { pending_operations?: unknown[] } }).deployment.pending_operations ?? []).toEqual([]);

    await stack.up();
    const preview = await stack.preview();
    expect(Object.keys(preview.changes)).toEqual(["same"]);
    const forgeLabels = (await world.api.list<{ name: string }>("/groups/:group/labels", { group: "acme" })).map((label) => label.name).sort();
    expect(forgeLabels).toEqual(labels.map((label) => label.inputs.name).sort());
    const titles = (await world.api.list<{ title: string }>("/snippets")).map((snippet) => snippet.title).sort();
    expect(titles).toEqual(["runbook", "team-notes", "team-notes"]);
    expect(JSON.stringify((await world.api.request("GET", "/snippets/:id", { id: theirs })).body)).toBe(before);
    expect((await recover()).stdout).toContain("nothing to recover");
  }, 300_000);
});
