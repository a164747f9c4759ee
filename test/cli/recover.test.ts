/**
 * `forge-recover`: a pipeline killed mid-run leaves pending creates; the recovery clears what
 * never happened, drops what the forge disproves (older than the claim by its own clock, made by
 * another user, held by the stack), deletes nothing, and leaves the rest to the user, who adopts
 * by name. The decision rules on hand-built cases, then the real CLI killed during an `up` whose
 * creates are slow.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { endSession } from "../../cli/process-session";
import { decide, explainPendingChange, type PendingChange, type PendingCreate, type RecoveryPlan } from "../../cli/recover";
import { seedToken, startEmulator, type RunningEmulator } from "../../emulator";
import { cliProject, PLUGIN_DIR, type CliProject } from "../e2e/cli-project";
import { skipEngineTests, PULUMI_ROOT, REPO_ROOT, startE2eWorld, type E2eWorld, type TestStack } from "../e2e/harness";

const RECOVER_BIN = join(REPO_ROOT, "dist", "cli", "forge-recover.js");
const emptyPlan = (): RecoveryPlan => ({ adopts: [], clears: [], undecided: [], notes: [] });
const pending = (urn: string, inputs: Record<string, unknown> = {}, inState = false): PendingCreate => ({
  urn,
  type: "Snippet",
  inputs: { title: "t", __createdAfter: "2026-01-01T00:00:10Z", ...inputs },
  inState,
});
const sameClock = { offsetMs: 0 };

/**
 * The runs a test killed. Killing a run's process group ends the CLI alone: its language host
 * and plugins are in groups of their own, and would outlive the test (re-parented to init, their
 * providers still serving). They stay in the run's session (`detached` calls setsid), which is
 * ended once the test is over, so nothing of a killed run is left for the tests after it.
 */
const killedRuns: number[] = [];
afterEach(async () => {
  for (const sid of killedRuns.splice(0)) await endSession(sid, 1000);
});
/** Kills the run's process group with SIGKILL, as a cancelled pipeline does. */
function kill(run: ChildProcess): void {
  killedRuns.push(run.pid!);
  process.kill(-run.pid!, "SIGKILL");
}

describe("forge-recover's decisions", () => {
  it("clears a create whose identity holds nothing (or only what a resource of the stack holds), and never takes an object on its own", () => {
    const plan = emptyPlan();
    decide([{ ...pending("a"), type: "GroupLabel" }], [{ id: "acme:1" }], new Set(), sameClock, plan);
    decide([{ ...pending("b"), type: "GroupLabel" }], [], new Set(), sameClock, plan);
    decide([{ ...pending("c"), type: "GroupLabel" }], [{ id: "acme:3" }], new Set(["GroupLabel acme:3"]), sameClock, plan);
    expect(plan.adopts).toEqual([]);
    expect(plan.clears).toEqual(["b", "c"]);
    // A label the person made before the run looks the same as one the run made: the user decides.
    expect(plan.undecided).toEqual([expect.objectContaining({ urns: ["a"], candidates: [{ id: "acme:1" }] })]);
  });

  it("drops what the forge made before the create's claim, by the forge's own clock", () => {
    const madeTheDayBefore = { id: "1", createdAt: "2025-12-31T00:00:00Z" };
    const plan = emptyPlan();
    decide([pending("a")], [madeTheDayBefore], new Set(), sameClock, plan);
    expect(plan.clears).toEqual(["a"]);
    // A forge whose clock is 10 s behind the runner's: the create's own object (made a second
    // after the claim, by the runner's clock) reads 9 s before it, and is still a candidate.
    const behind = emptyPlan();
    decide([pending("a")], [{ id: "2", createdAt: "2026-01-01T00:00:01Z" }], new Set(), { offsetMs: -10_000 }, behind);
    expect(behind.clears).toEqual([]);
    expect(behind.undecided).toEqual([
      expect.objectContaining({ urns: ["a"], candidates: [{ id: "2", createdAt: "2026-01-01T00:00:01Z" }] }),
    ]);
  });

  it("drops what the forge records as made by another user", () => {
    const plan = emptyPlan();
    decide(
      [{ ...pending("t"), type: "ClusterAgentToken" }],
      [{ id: "acme/web:1:9", createdAt: "2026-01-01T00:00:20Z", madeByOther: true }],
      new Set(),
      sameClock,
      plan,
    );
    expect(plan).toEqual({ adopts: [], clears: ["t"], undecided: [], notes: [] });
  });

  it("a create that a later up made again is cleared, and what may be a second copy is named, never deleted", () => {
    const plan = emptyPlan();
    decide(
      [pending("a", {}, true)],
      [
        { id: "2", createdAt: "2026-01-01T00:00:11Z" },
        { id: "3", createdAt: "2026-01-01T00:01:00Z" },
      ],
      new Set(["Snippet 3"]),
      sameClock,
      plan,
    );
    expect(plan.clears).toEqual(["a"]);
    expect(plan.notes).toEqual([expect.stringMatching(/^Snippet 2: may be a second copy.*nothing was deleted/)]);
    expect(plan.undecided).toEqual([]);
  });
});

describe("what forge-recover says of a pending delete or update", () => {
  const change = (kind: PendingChange["kind"]): PendingChange => ({
    urn: "urn:pulumi:s::p::forge:index:ProjectProtectedEnvironment::prod",
    kind,
    type: "ProjectProtectedEnvironment",
    id: "acme/web:production",
    outputs: {},
  });

  it("says what each standing means, and leaves to the user only an object nothing tells apart", () => {
    const said = (kind: PendingChange["kind"], standing: Parameters<typeof explainPendingChange>[1]) =>
      explainPendingChange(change(kind), standing);
    expect(said("delete", "gone")).toEqual({
      text: expect.stringMatching(/^prod: .* is gone from the forge: the delete went through/),
      undecided: false,
    });
    expect(said("delete", "same").text).toMatch(/still on the forge, and it is this stack's object: the delete did not happen/);
    expect(explainPendingChange(change("delete"), "another", ["deploy_access_levels[].id"])).toEqual({
      text: expect.stringMatching(
        /is another object now: none of what the state kept of the stack's \(deploy_access_levels\[\]\.id\) is on it.*not this stack's: `pulumi refresh` drops the resource from the state and leaves the object alone/,
      ),
      undecided: false,
    });
    expect(said("update", "same").text).toMatch(/may have reached the forge or not.*the next up repairs what differs/);
    expect(said("update", "another").undecided).toBe(false);
    for (const kind of ["delete", "update"] as const) {
      const unproven = said(kind, "unproven");
      expect(unproven.undecided).toBe(true);
      expect(unproven.text).toContain("pulumi state delete urn:pulumi:s::p::forge:index:ProjectProtectedEnvironment::prod");
    }
    // A resource name is text from the state: quoted, so the pasted command runs nothing of it.
    const hostile = explainPendingChange(
      { ...change("delete"), urn: "urn:pulumi:s::p::forge:index:ProjectProtectedEnvironment::it's; touch x" },
      "unproven",
    );
    expect(hostile.text).toContain("pulumi state delete 'urn:pulumi:s::p::forge:index:ProjectProtectedEnvironment::it'\\''s; touch x'");
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

  const recoverStack = (target: TestStack, ...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [RECOVER_BIN, "--cwd", target.workDir, "--stack", target.stack.name, ...args],
        { env: { ...process.env, ...target.env } },
        (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr }),
      );
    });
  const recover = (...args: string[]) => recoverStack(stack, ...args);
  /** How many requests the forge's faults hold (their answers wait until the faults are cleared). */
  const held = async () => ((await (await world.emulator.admin("/faults")).json()) as { held: number }).held;

  it("converges with no duplicate and nothing made by hand touched", async () => {
    // Made by hand before: a snippet of the same title as one the program declares.
    const theirs = (
      await world.api.request<{ id: number }>("POST", "/snippets", {
        title: "team-notes",
        files: [{ file_path: "theirs.md", content: "not yours\n" }],
      })
    ).body.id;
    const before = JSON.stringify((await world.api.request("GET", "/snippets/:id", { id: theirs })).body);
    await sleep(2500); // made before the run by more than the clock's slack (the Date header's whole seconds)
    const labels = Array.from({ length: 6 }, (_, index) => ({
      type: "GroupLabel",
      name: `label-${index}`,
      inputs: { group: "acme", name: `killed-${index}`, color: "red" },
    }));
    const snippets = ["team-notes", "runbook"].map((title) => ({
      type: "Snippet",
      name: `snippet-${title}`,
      inputs: { title, files: [{ filePath: "a.md", content: `${title}\n` }] },
    }));
    await stack.declare([...labels, ...snippets]);
    for (const path of ["^/groups/[^/]+/labels$", "^/snippets$"]) {
      expect(
        (await world.emulator.admin("/faults", { method: "POST", json: { method: "POST", path, latencyMs: 240_000 } })).status,
      ).toBeLessThan(300);
    }

    // The pipeline is killed while the creates wait for their answers.
    const run = pulumiToKill(stack, "up");
    const started = Date.now();
    // The creates' POSTs are held by the forge (until the faults are cleared below): the run is killed
    // while they wait. Every label's POST is sent; snippets take turns under their one parent, so the
    // second may wait in the provider, its create pending and never sent.
    while ((await held()) < labels.length + 1 && Date.now() - started < 60_000) await sleep(100);
    expect(await held(), "the creates were never sent").toBeGreaterThanOrEqual(labels.length + 1);
    await sleep(300);
    kill(run);
    // The forge finishes the requests it received.
    await world.emulator.admin("/faults", { method: "DELETE" });
    await sleep(500);
    const sentSnippets = (await world.api.list<{ id: number; title: string }>("/snippets")).filter((snippet) => snippet.id !== theirs);
    const sent = labels.length + sentSnippets.length;
    const exported = (await stack.exportedState()) as { deployment: { pending_operations?: unknown[] } };
    expect(exported.deployment.pending_operations?.length ?? 0).toBeGreaterThan(0);
    // The lock a killed run leaves (file backend) is removed as `pulumi cancel` would.
    await stack.cli("cancel", "--yes").catch(() => undefined);

    // Nothing is taken on inference: each create's object is listed, with the command that takes them.
    const listed = await recover();
    expect(listed.stderr, listed.stdout).toBe("");
    expect(listed.code, listed.stdout).toBe(2);
    expect(listed.stdout).not.toMatch(/^ {2}adopt/m);
    // A create whose POST reached the forge has its object as a candidate; one never sent has none (cleared).
    expect(listed.stdout.match(/^ {2}decide/gm)).toHaveLength(sent);
    // The snippet made by hand before the run is no candidate of the create of the same title.
    for (const [, candidates] of listed.stdout.matchAll(/decide {2}snippet-[\w-]+: .*candidates: (.*)$/gm)) {
      expect(candidates!.split(", ").map((candidate) => candidate.split(" ")[0])).not.toContain(String(theirs));
      expect(candidates!.split(", ")).toHaveLength(1);
    }
    const command = /npx forge-recover (.*--adopt .*)$/m.exec(listed.stdout)?.[1];
    expect(command, listed.stdout).toBeDefined();
    // Each word as a shell reads it: bare, or single-quoted where it holds what a shell would read.
    const args = [...command!.matchAll(/--adopt (?:'([^']+)'|(\S+))/g)].flatMap((match) => ["--adopt", (match[1] ?? match[2])!]);
    expect(args).toHaveLength(2 * sent);
    const recovered = await recover(...args);
    expect(recovered.code, `${recovered.stdout}\n${recovered.stderr}`).toBe(0);
    expect(recovered.stdout).toMatch(/adopt {3}/);
    expect(
      ((await stack.exportedState()) as { deployment: { pending_operations?: unknown[] } }).deployment.pending_operations ?? [],
    ).toEqual([]);

    // The adopted objects are the program's: the next up makes only what was never sent.
    const up = await stack.up();
    expect(up.changes["create"] ?? 0).toBe(snippets.length - sentSnippets.length);
    expect(Object.keys(up.changes).filter((change) => change !== "same" && change !== "create")).toEqual([]);
    const forgeLabels = (await world.api.list<{ name: string }>("/groups/:group/labels", { group: "acme" }))
      .map((label) => label.name)
      .sort();
    expect(forgeLabels).toEqual(labels.map((label) => label.inputs.name).sort());
    const titles = (await world.api.list<{ title: string }>("/snippets")).map((snippet) => snippet.title).sort();
    expect(titles).toEqual(["runbook", "team-notes", "team-notes"]);
    expect(JSON.stringify((await world.api.request("GET", "/snippets/:id", { id: theirs })).body)).toBe(before);
    expect((await recover()).stdout).toContain("nothing to recover");
  }, 300_000);

  it("a run killed under PULUMI_SKIP_CHECKPOINTS leaves no pending create: forge-recover says why, and the next up refuses the labels it made, naming them, and takes none", async () => {
    await world.emulator.admin("/faults", { method: "DELETE" });
    const skipped = await world.stack("resources", "skipped");
    const labels = Array.from({ length: 3 }, (_, index) => ({
      type: "GroupLabel",
      name: `label-${index}`,
      inputs: { group: "acme", name: `skipped-${index}`, color: "red" },
    }));
    await skipped.declare(labels);
    expect(
      (
        await world.emulator.admin("/faults", {
          method: "POST",
          json: { method: "POST", path: "^/groups/[^/]+/labels$", latencyMs: 240_000 },
        })
      ).status,
    ).toBeLessThan(300);
    const run = spawn(join(PULUMI_ROOT, "bin", "pulumi"), ["up", "--yes", "--skip-preview", "--non-interactive", "--stack", "skipped"], {
      cwd: skipped.workDir,
      env: { ...process.env, ...skipped.env, PULUMI_SKIP_CHECKPOINTS: "true" },
      detached: true,
      stdio: "ignore",
    });
    const started = Date.now();
    while ((await held()) < labels.length && Date.now() - started < 60_000) await sleep(100);
    expect(await held(), "the creates were never sent").toBe(labels.length);
    kill(run);
    // The forge finishes what it received: the labels exist, and the state never heard of them.
    await world.emulator.admin("/faults", { method: "DELETE" });
    const exported = (await skipped.exportedState()) as { deployment: { pending_operations?: unknown[]; resources?: { type: string }[] } };
    expect(exported.deployment.pending_operations ?? []).toEqual([]);
    expect((exported.deployment.resources ?? []).filter((resource) => resource.type.endsWith("GroupLabel"))).toEqual([]);
    await skipped.cli("cancel", "--yes").catch(() => undefined);

    const quiet = await recoverStack(skipped);
    expect(quiet.code, quiet.stdout).toBe(0);
    expect(quiet.stdout).toContain("nothing to recover");
    expect(quiet.stdout).toContain("PULUMI_SKIP_CHECKPOINTS");

    const seq = Math.max(0, ...(await world.requests()).map((request) => request.seq));
    const refused = await skipped.fails("up");
    // Each create that started found its own object, made by the killed run, and refused it by its import id.
    const made = (await world.api.list<{ id: number; name: string }>("/groups/:group/labels", { group: "acme" })).filter((label) =>
      label.name.startsWith("skipped-"),
    );
    expect(made.map((label) => label.name).sort()).toEqual(labels.map((label) => label.inputs.name));
    const named = [...refused.matchAll(/"(acme:\d+)" already exists on the forge, and this resource did not make it/g)].map(
      (match) => match[1],
    );
    expect(named.length, refused).toBeGreaterThan(0);
    for (const id of named) expect(made.map((label) => `acme:${label.id}`)).toContain(id);
    expect((await world.requests(seq)).filter((request) => request.method !== "GET")).toEqual([]);
  }, 300_000);

  it("a destroy killed while a protected environment's DELETE was in flight: forge-recover reports the pending delete, and the environment a person protects again since is hers, never written or deleted", async () => {
    await world.emulator.admin("/faults", { method: "DELETE" });
    const destroyed = await world.stack("resources", "destroyed");
    const address = { project: "acme/web", name: "production" };
    await destroyed.declare([
      { type: "ProjectProtectedEnvironment", name: "prod", inputs: { ...address, deployAccessLevels: [{ accessLevel: 40 }] } },
    ]);
    await destroyed.up();
    expect(
      (
        await world.emulator.admin("/faults", {
          method: "POST",
          json: { method: "DELETE", path: "^/projects/[^/]+/protected_environments/[^/]+$", latencyMs: 240_000 },
        })
      ).status,
    ).toBeLessThan(300);
    const run = pulumiToKill(destroyed, "destroy");
    const started = Date.now();
    while ((await held()) < 1 && Date.now() - started < 60_000) await sleep(100);
    expect(await held(), "the DELETE was never sent").toBe(1);
    kill(run);
    // The forge finishes the DELETE it received; the state keeps the environment, its delete pending.
    await world.emulator.admin("/faults", { method: "DELETE" });
    const environment = () =>
      world.api.request<Record<string, unknown>>("GET", "/projects/:project/protected_environments/:name", address).then(
        (answer) => answer.body,
        () => undefined,
      );
    while ((await environment()) && Date.now() - started < 60_000) await sleep(100);
    expect(await environment()).toBeUndefined();
    const exported = (await destroyed.exportedState()) as { deployment: { pending_operations?: { type: string }[] } };
    expect(exported.deployment.pending_operations?.map((op) => op.type)).toEqual(["deleting"]);
    await destroyed.cli("cancel", "--yes").catch(() => undefined);

    // A person protects it again, for developers.
    await world.fixtureWorld
      .as("max")
      .request("POST", "/projects/:project/protected_environments", { ...address, deploy_access_levels: [{ access_level: 30 }] });
    const hers = JSON.stringify(await environment());
    const reported = await recoverStack(destroyed);
    expect(reported.code, `${reported.stdout}\n${reported.stderr}`).toBe(0);
    expect(reported.stdout).toMatch(
      /^ {2}delete {2}prod: ProjectProtectedEnvironment acme\/web:production is another object now: none of .*deploy_access_levels\[\]\.id.* is on it.*not this stack's/m,
    );

    // The next up --refresh drops the stack's environment and refuses hers by name; the destroy after it deletes nothing.
    const seq = Math.max(0, ...(await world.requests()).map((request) => request.seq));
    const refused = await destroyed.cli("up", "--yes", "--skip-preview", "--refresh").then(
      (output) => expect.fail(`up succeeded:\n${output}`),
      (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ""}${error.stderr ?? ""}`,
    );
    expect(refused).toContain(`"acme/web:production" already exists on the forge, and this resource did not make it`);
    // The refresh cleared the pending delete, as forge-recover said it would.
    expect(
      ((await destroyed.exportedState()) as { deployment: { pending_operations?: unknown[] } }).deployment.pending_operations ?? [],
    ).toEqual([]);
    await destroyed.destroy();
    expect(
      (await world.requests(seq)).filter((request) => request.method !== "GET" && request.path.includes("protected_environments")),
    ).toEqual([]);
    expect(JSON.stringify(await environment())).toBe(hers);
  }, 300_000);
});

describe.skipIf(skipEngineTests())("forge-recover on a plugin-face stack (forge:index:*), killed before a POST was sent", () => {
  let emulator: RunningEmulator;
  let project: CliProject;
  const admin = (method: string, route: string, json?: unknown) =>
    emulator.admin(route, { method, ...(json === undefined ? {} : { json }) });
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${emulator.url}/api/v4${path}`, {
      ...init,
      headers: { "content-type": "application/json", "PRIVATE-TOKEN": seedToken("max"), ...(init.headers ?? {}) },
    });

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    project = await cliProject({
      name: "recover-plugin",
      nodeModules: true,
      from: {
        "Pulumi.yaml": `name: forge-recover-plugin\nruntime: nodejs\nplugins:\n  providers:\n    - name: forge\n      path: ${PLUGIN_DIR}\n`,
        "index.js": `const forge = require("pulumi-forge/plugin");
new forge.GroupLabel("hand", { group: "acme", name: "hand", color: "red" });
new forge.Snippet("notes", { title: "notes", files: [{ filePath: "a.md", content: "mine\\n" }] });
`,
      },
      config: { "forge:baseUrl": { value: emulator.url }, "forge:token": { value: seedToken("root"), secret: true } },
    });
  }, 600_000);
  afterAll(async () => {
    await emulator?.close();
    project?.close();
  });

  const recover = (...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [RECOVER_BIN, "--cwd", project.dir, "--stack", "test", ...args],
        { env: project.env },
        (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr }),
      );
    });

  it("never takes a person's label that was there before the run; finds the plugin's pending creates and adopts only by name", async () => {
    // A person's label, made before the run, with the name the program declares.
    const theirs = (await (
      await api("/groups/acme/labels", { method: "POST", body: JSON.stringify({ name: "hand", color: "#00ff00", description: "by hand" }) })
    ).json()) as { id: number };
    const labelBytes = async () => JSON.stringify(await (await api(`/groups/acme/labels/${theirs.id}`)).json());
    const before = await labelBytes();
    // The label's look-up before its create hangs; the snippet's POST takes its time.
    expect((await admin("POST", "/faults", { method: "GET", path: "^/groups/[^/]+/labels$", latencyMs: 6000 })).status).toBeLessThan(300);
    expect((await admin("POST", "/faults", { method: "POST", path: "^/snippets$", latencyMs: 2500 })).status).toBeLessThan(300);
    const run = spawn(join(PULUMI_ROOT, "bin", "pulumi"), ["up", "--yes", "--skip-preview", "--non-interactive", "--stack", "test"], {
      cwd: project.dir,
      env: project.env,
      detached: true,
      stdio: "ignore",
    });
    const started = Date.now();
    const listedSnippets = async () =>
      ((await (await admin("GET", "/requests")).json()) as { method: string; path: string }[]).some(
        (entry) => entry.method === "GET" && entry.path.endsWith("/snippets"),
      );
    while (!(await listedSnippets()) && Date.now() - started < 90_000) await sleep(100);
    await sleep(800);
    kill(run);
    await sleep(3000); // the forge finishes the POST it received
    await admin("DELETE", "/faults");
    await project.run(["cancel", "--yes"]);

    const listed = await recover();
    expect(listed.code, `${listed.stdout}\n${listed.stderr}`).toBe(2);
    expect(listed.stdout).toContain("2 pending creates");
    expect(listed.stdout).toMatch(new RegExp(`decide {2}hand: .*candidates: acme:${theirs.id}$`, "m"));
    const snippetId = /decide {2}notes: .*candidates: (\d+) /m.exec(listed.stdout)?.[1];
    expect(snippetId, listed.stdout).toBeDefined();

    const decided = await recover("--clear", "hand", "--adopt", `notes=${snippetId}`);
    expect(decided.code, `${decided.stdout}\n${decided.stderr}`).toBe(0);
    // The next up refuses the person's label, naming its import id, and makes no second snippet.
    const up = await project.run(["up", "--yes", "--skip-preview"]);
    expect(up.code).not.toBe(0);
    expect(up.output).toContain(`"acme:${theirs.id}" already exists`);
    const snippets = (await (
      await fetch(`${emulator.url}/api/v4/snippets`, { headers: { "PRIVATE-TOKEN": seedToken("root") } })
    ).json()) as { id: number; title: string }[];
    expect(snippets.filter((snippet) => snippet.title === "notes").map((snippet) => String(snippet.id))).toEqual([snippetId]);
    await project.ok(["destroy", "--yes", "--skip-preview"]);
    expect(await labelBytes()).toBe(before);
    expect(
      ((await (await fetch(`${emulator.url}/api/v4/snippets`, { headers: { "PRIVATE-TOKEN": seedToken("root") } })).json()) as unknown[])
        .length,
    ).toBe(0);
  }, 300_000);
});

/** `pulumi <command>` on the stack in a session of its own, as a runner that can be killed (see {@link kill}). */
function pulumiToKill(stack: TestStack, command: "up" | "destroy"): ChildProcess {
  return spawn(join(PULUMI_ROOT, "bin", "pulumi"), [command, "--yes", "--skip-preview", "--non-interactive", "--stack", stack.stack.name], {
    cwd: stack.workDir,
    env: { ...process.env, ...stack.env },
    detached: true,
    stdio: "ignore",
  });
}
