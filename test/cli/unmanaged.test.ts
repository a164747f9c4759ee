/**
 * `forge-drift --unmanaged` and `forge-adopt --unmanaged` with the real Pulumi CLI, over a fleet of
 * three stacks on shared PostgreSQL state (two TypeScript projects on the dynamic face, one Pulumi
 * YAML project on the plugin face), each read by `pulumi stack export`. A person then makes a label,
 * a broadcast message, an integration, a member and a second agent token by hand; the forge makes
 * a project creator's membership and default settings itself. The report names exactly what the
 * person made, the label two stacks hold, the forge's own apart and what the ignore file allows;
 * the program forge-adopt writes for the rest imports it without a write; a stack whose state
 * cannot be read makes the report incomplete. The rest of the behaviour is tested at the contract
 * layer (test/contract/unmanaged.test.ts). That a program forge-adopt writes previews clean once
 * imported is test/e2e/adopt-yaml.test.ts's (every adoptable type, in YAML): not run again here.
 */
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routes } from "../../api/routes";
import { unmanagedReportSchema, type UnmanagedReport } from "../../cli/unmanaged-report";
import { closeClients } from "../../provider/client";
import { startWorld, type World } from "../contract/world";
import { cliProject, PLUGIN_DIR, type CliProject } from "../e2e/cli-project";
import { REPO_ROOT, skipEngineTests } from "../e2e/harness";
import { postgresBinaries, startPostgres, type RunningPostgres } from "../support/postgres";

const DRIFT_BIN = join(REPO_ROOT, "dist", "cli", "forge-drift.js");
const ADOPT_BIN = join(REPO_ROOT, "dist", "cli", "forge-adopt.js");
const OP_TIMEOUT = 300_000;

const pgMissing = "missing" in postgresBinaries() ? (postgresBinaries() as { missing: string }).missing : undefined;
if (pgMissing && !skipEngineTests()) console.warn(`unmanaged.test.ts: the PostgreSQL fleet is skipped: ${pgMissing}`);

describe.skipIf(skipEngineTests() || pgMissing !== undefined)("what no stack of a PostgreSQL fleet of three holds", () => {
  let world: World;
  let postgres: RunningPostgres;
  let teams: CliProject[];
  /** Ids of what the stacks and the person made. */
  const made: Record<string, number> = {};

  /** Runs one of the package's bins with the forge's connection in the environment, in the first team's project (its backend, PostgreSQL). */
  const bin = (path: string, ...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const env = { ...teams[0]!.env, FORGE_BASE_URL: world.emulator.url, FORGE_TOKEN: world.user("root").token };
      execFile(process.execPath, [path, ...args], { env, cwd: teams[0]!.work, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr }),
      );
    }).then((run) => {
      expect(`${run.stdout}\n${run.stderr}`, "the backend's password in the output").not.toContain(postgres.password);
      return run;
    });
  const scope = ["--group", "fleet", "--instance"];
  const lastSeq = async () =>
    Math.max(0, ...((await (await world.emulator.admin("/requests")).json()) as { seq: number }[]).map((request) => request.seq));
  const writesSince = async (seq: number) =>
    ((await (await world.emulator.admin(`/requests?since=${seq}`)).json()) as { method: string; path: string }[])
      .filter((request) => request.method !== "GET")
      .map((request) => `${request.method} ${request.path}`);
  /** `kind name` of each object of a report's list, sorted. */
  const named = (objects: readonly { kind: string; name: string }[]) => objects.map((object) => `${object.kind} ${object.name}`).sort();

  beforeAll(async () => {
    world = await startWorld();
    postgres = await startPostgres();
    // The scope: a group and a project made out of band; olivia makes the project, so the forge makes her its Owner.
    await world.emulator.admin("/groups", { method: "POST", json: { path: "fleet" } });
    await world.emulator.admin("/projects", { method: "POST", json: { path: "app", namespace: "fleet", creator: "olivia" } });
    const label = async (name: string) =>
      (await world.api.request<{ id: number }>(routes.groupLabels.create, { group: "fleet", name, color: "#00AA00" })).body.id;
    made["shared"] = await label("shared");
    made["agent"] = (
      await world.api.request<{ id: number }>(routes.clusterAgents.create, { project: "fleet/app", name: "deploy" })
    ).body.id;

    const backend = { url: postgres.url, env: { PGPASSWORD: postgres.password } };
    const config = { "forge:baseUrl": { value: world.emulator.url }, "forge:token": { value: world.user("root").token, secret: true } };
    const shared = `{ group: "fleet", name: "shared", color: "#00AA00" }, { import: "fleet:${made["shared"]}" }`;
    const projects = [
      // Team A: its own label, and the shared one, imported.
      () =>
        cliProject({
          name: "unmanaged-a",
          nodeModules: true,
          backend,
          config,
          from: {
            "Pulumi.yaml": "name: team-a\nruntime: nodejs\n",
            "index.js": `const forge = require("pulumi-forge");\nnew forge.GroupLabel("own", { group: "fleet", name: "a-own", color: "#FF0000" });\nnew forge.GroupLabel("shared", ${shared});\n`,
          },
        }),
      // Team B: the shared label again (held twice), the agent (imported) and its first token.
      () =>
        cliProject({
          name: "unmanaged-b",
          nodeModules: true,
          backend,
          config,
          from: {
            "Pulumi.yaml": "name: team-b\nruntime: nodejs\n",
            "index.js": [
              'const forge = require("pulumi-forge");',
              `new forge.GroupLabel("shared-too", ${shared});`,
              `const agent = new forge.ClusterAgent("deploy", { project: "fleet/app", name: "deploy" }, { import: "fleet/app:${made["agent"]}" });`,
              'new forge.ClusterAgentToken("first", { project: "fleet/app", agentId: agent.agentId, name: "first" });',
              "",
            ].join("\n"),
          },
        }),
      // Team C, in Pulumi YAML on the plugin face: its own label.
      () =>
        cliProject({
          name: "unmanaged-c",
          backend,
          config,
          from: {
            "Pulumi.yaml": `name: team-c\nruntime: yaml\nplugins:\n  providers:\n    - name: forge\n      path: ${PLUGIN_DIR}\nresources:\n  own:\n    type: forge:index:GroupLabel\n    properties: { group: fleet, name: c-own, color: "#0000FF" }\n`,
          },
        }),
    ];
    // The first stack of a fresh database creates the backend's table; two stacks initialised at
    // once race in PostgreSQL's CREATE TABLE IF NOT EXISTS (a duplicate key of pg_type, seen in CI).
    teams = [await projects[0]!()];
    teams.push(...(await Promise.all(projects.slice(1).map((make) => make()))));
    await Promise.all(teams.map((team) => team.ok(["up", "--yes", "--skip-preview"])));

    // What a person makes by hand, and one label the ignore file allows.
    made["hand"] = await label("hand-made");
    made["tmp"] = await label("tmp-scratch");
    await world.api.request(routes.broadcastMessages.create, { message: "Maintenance tonight" });
    await world.api.request(routes.groupIntegrations.bySlug["emails-on-push"].set, { group: "fleet", recipients: "ops@example.com" });
    await world
      .as("olivia")
      .request(routes.projectMembers.create, { project: "fleet/app", user_id: world.user("dev").id, access_level: 30 });
    await world.as("olivia").request(routes.clusterAgentTokens.create, { project: "fleet/app", agentId: made["agent"], name: "second" });

    const fleet = teams.map((team) => `  - { stack: test, cwd: ${team.dir} }`);
    writeFileSync(join(teams[0]!.work, "fleet.yaml"), `stacks:\n${fleet.join("\n")}\n`);
    // Team C's entry misspelt: a stack whose state cannot be read.
    writeFileSync(
      join(teams[0]!.work, "fleet-unread.yaml"),
      `stacks:\n${fleet.slice(0, 2).join("\n")}\n  - { stack: tset, cwd: ${teams[2]!.dir} }\n`,
    );
    writeFileSync(
      join(teams[0]!.work, "ignore.yaml"),
      'ignore:\n  - { kind: GroupLabel, name: "tmp-*", reason: scratch labels of the on-call person }\n  - { kind: Snippet, scope: snippets, reason: "personal notes (a rule nothing matches: stale)" }\n',
    );
  }, OP_TIMEOUT);

  afterAll(async () => {
    for (const team of teams ?? []) team.close();
    postgres?.stop();
    await closeClients();
    await world?.close();
  });

  it(
    "names exactly what a person made, the label two stacks hold, the forge's own apart, what the ignore file allows; JSON that its schema reads; only GETs",
    async () => {
      const seq = await lastSeq();
      const run = await bin(
        DRIFT_BIN,
        "--unmanaged",
        "--stacks-file",
        join(teams[0]!.work, "fleet.yaml"),
        ...scope,
        "--ignore-file",
        join(teams[0]!.work, "ignore.yaml"),
        "--format",
        "json",
      );
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(4);
      expect(await writesSince(seq)).toEqual([]);
      const report: UnmanagedReport = unmanagedReportSchema.parse(JSON.parse(run.stdout));
      expect(report.complete).toBe(true);
      expect(report.stacks.map((stack) => [stack.label, stack.status, stack.resources])).toEqual([
        ["team-a/test", "read", 2],
        ["team-b/test", "read", 3],
        ["team-c/test", "read", 1],
      ]);
      expect(named(report.unmanaged)).toEqual([
        "BroadcastMessage Maintenance tonight",
        "ClusterAgentToken second",
        "GroupIntegrationEmailsOnPush Emails on push",
        "GroupLabel hand-made",
        "ProjectMember dev",
      ]);
      expect(report.unmanaged.find((object) => object.kind === "GroupLabel")).toMatchObject({
        importId: `fleet:${made["hand"]}`,
        import: {
          command: `pulumi import forge:index:GroupLabel fleet-label-hand-made fleet:${made["hand"]}`,
          yaml: `import: "fleet:${made["hand"]}"`,
          typescript: `{ import: "fleet:${made["hand"]}" }`,
        },
      });
      expect(report.unmanaged.find((object) => object.kind === "ProjectMember")).toMatchObject({
        createdBy: "olivia",
        createdAt: expect.any(String),
      });
      expect(report.settings).toEqual([]);
      expect(
        report.heldTwice.map((held) => [held.kind, held.importId, held.holders.map((holder) => `${holder.stack} ${holder.resource}`)]),
      ).toEqual([["GroupLabel", `fleet:${made["shared"]}`, ["team-a/test shared", "team-b/test shared-too"]]]);
      expect(report.forgeOwn.map((object) => `${object.kind} ${object.importId}`).sort()).toEqual([
        "GroupSettings fleet",
        "JobTokenScope fleet/app",
        `ProjectMember fleet/app:${world.user("olivia").id}`,
      ]);
      expect(named(report.ignored)).toEqual(["GroupLabel tmp-scratch"]);
      expect(report.ignoreRules.map((rule) => [rule.entry, rule.matched])).toEqual([
        [1, 1],
        [2, 0],
      ]);
      expect(report.possiblyHeld).toEqual([]);
      // Nothing a stack holds is in any list.
      const listed = JSON.stringify([report.unmanaged, report.forgeOwn, report.ignored, report.settings]);
      for (const name of ["a-own", "c-own", '"shared"', '"deploy"', '"first"']) expect(listed).not.toContain(name);
    },
    OP_TIMEOUT,
  );

  it(
    "forge-adopt --unmanaged writes a YAML program of exactly the rest, whose first up imports it without a write",
    async () => {
      const program = await cliProject({
        name: "unmanaged-adopted",
        from: { "Pulumi.yaml": "name: forge-adopted\nruntime: yaml\n" },
        config: { "forge:baseUrl": { value: world.emulator.url }, "forge:token": { value: world.user("root").token, secret: true } },
      });
      try {
        const out = join(program.dir, "Pulumi.yaml");
        const fleetArgs = ["--stacks-file", join(teams[0]!.work, "fleet.yaml"), ...scope];
        const adopted = await bin(
          ADOPT_BIN,
          "--unmanaged",
          ...fleetArgs,
          "--ignore-file",
          join(teams[0]!.work, "ignore.yaml"),
          "--language",
          "yaml",
          "--plugin-path",
          PLUGIN_DIR,
          "--out",
          out,
          "--force",
        );
        expect(adopted.code, adopted.stderr).toBe(0);
        const yaml = readFileSync(out, "utf8");
        expect(yaml).toContain(`held by more than one stack (team-a/test, team-b/test)`);
        const seq = await lastSeq();
        expect(await program.ok(["up", "--yes", "--skip-preview"])).toContain("= 5 imported");
        expect(await writesSince(seq)).toEqual([]);

        // Without --unmanaged, the fleet's stacks still leave out what they hold.
        const listing = await bin(ADOPT_BIN, ...fleetArgs, "--list");
        expect(listing.code, listing.stderr).toBe(0);
        const names = listing.stdout
          .trim()
          .split("\n")
          .map((line) => line.split("\t")[1]);
        expect(names).toContain("fleet-label-hand-made");
        for (const held of ["a-own", "c-own", "shared", "deploy", "first"])
          expect(names.filter((name) => name!.includes(held))).toEqual([]);
      } finally {
        program.close();
      }
    },
    OP_TIMEOUT,
  );

  it(
    "a stack whose state cannot be read makes the report incomplete: what it may hold is possibly held, never unmanaged; forge-adopt --unmanaged writes nothing",
    async () => {
      const unread = join(teams[0]!.work, "fleet-unread.yaml");
      const run = await bin(DRIFT_BIN, "--unmanaged", "--stacks-file", unread, ...scope);
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(1);
      expect(run.stdout).toMatch(/^INCOMPLETE: /m);
      expect(run.stdout).toMatch(/^ {2}team-c\/tset +unread +0 objects +its state could not be read: /m);
      expect(run.stdout).not.toContain("Unmanaged objects");
      // Team C's label, which the stack that was not read holds, is only possibly held.
      expect(run.stdout).toMatch(/^Possibly held[^\n]*\n(?: {2}[^\n]*\n)*? {2}GroupLabel {2}fleet {2}c-own /m);
      const adopted = await bin(ADOPT_BIN, "--unmanaged", "--stacks-file", unread, ...scope);
      expect(adopted.code).toBe(1);
      expect(adopted.stderr).toContain("--unmanaged writes nothing while a stack's state is not known in full");
      expect(adopted.stdout).toBe("");
    },
    OP_TIMEOUT,
  );
});
