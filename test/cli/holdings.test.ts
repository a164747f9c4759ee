/**
 * The tools on the one holdings model, with the real Pulumi CLI: a Pulumi YAML stack (the plugin
 * face) whose config names forge B (staging) while an explicit `pulumi:providers:forge` holds
 * forge A's (prod's) objects: a label, a rotating agent token, a chat integration with a secret
 * channel, and a `get:` of a label a person made. What no stack holds, the program that adopts it, the fleet's drift, one stack's drift and
 * forge-recover each judge every resource on its own forge, hold nothing for the `get:`, and count
 * a rotating resource's tokens as held. The matrix of every kind is
 * test/contract/holdings-matrix.test.ts (both faces); this file is what only the real CLI shows.
 */
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { routes } from "../../api/routes";
import { unmanagedReportSchema } from "../../cli/unmanaged-report";
import { ForgeClient, closeClients } from "../../provider/client";
import { startWorld, type World } from "../contract/world";
import { cliProject, PLUGIN_DIR, type CliProject } from "../e2e/cli-project";
import { REPO_ROOT, skipEngineTests } from "../e2e/harness";

const DRIFT_BIN = join(REPO_ROOT, "dist", "cli", "forge-drift.js");
const ADOPT_BIN = join(REPO_ROOT, "dist", "cli", "forge-adopt.js");
const RECOVER_BIN = join(REPO_ROOT, "dist", "cli", "forge-recover.js");
const OP_TIMEOUT = 300_000;

describe.skipIf(skipEngineTests())("a stack on two forges, a get: and a rotating token, through every tool", () => {
  let prod: World;
  let staging: RunningEmulator;
  let stagingApi: ForgeClient;
  let yaml: CliProject;
  const made: Record<string, number> = {};

  /** One of the package's bins in `cwd`, with the forge's connection (`forge` A or B) in the environment. */
  const bin = (path: string, cwd: CliProject, forge: "A" | "B", ...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const url = forge === "A" ? prod.emulator.url : staging.url;
      const env = { ...cwd.env, FORGE_BASE_URL: url, FORGE_TOKEN: prod.user("root").token };
      execFile(process.execPath, [path, ...args], { env, cwd: cwd.dir, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr }),
      );
    });
  const labelOn = async (api: ForgeClient, name: string) =>
    (await api.request<{ id: number }>(routes.groupLabels.create, { group: "acme", name, color: "#00AA00" })).body.id;
  const fleetFile = () => join(yaml.work, "fleet.yaml");

  beforeAll(async () => {
    [prod, staging] = await Promise.all([startWorld(), startEmulator({ port: 0 })]);
    stagingApi = new ForgeClient({ baseUrl: staging.url, token: prod.user("root").token, retry: { maxAttempts: 1 } });
    // A person's label on A (the YAML stack reads it with get:); an agent for the rotating token.
    made["hand"] = await labelOn(prod.api, "hand-made");
    made["agent"] = (await prod.api.request<{ id: number }>(routes.clusterAgents.create, { project: "acme/web", name: "deploy" })).body.id;
    // On B, the objects with A's ids: one more label than A has, and a chat integration of other values.
    await labelOn(stagingApi, "staging-only");
    await stagingApi.request(routes.groupIntegrations.bySlug["chat-webhook"].set, {
      group: "acme",
      webhook: "https://chat.staging.example/hooks/x",
      push_channel: "https://chat.staging.example/hooks/unrelated",
    });
    const token = prod.user("root").token;
    yaml = await cliProject({
      name: "holdings-yaml",
      config: {
        "forge:baseUrl": { value: staging.url },
        "forge:token": { value: token, secret: true },
        prodToken: { value: token, secret: true },
      },
      from: {
        "Pulumi.yaml": [
          "name: two-forges",
          "runtime: yaml",
          "plugins:",
          "  providers:",
          "    - name: forge",
          `      path: ${PLUGIN_DIR}`,
          "config:",
          "  prodToken:",
          "    type: string",
          "    secret: true",
          "resources:",
          "  prod:",
          "    type: pulumi:providers:forge",
          `    properties: { baseUrl: "${prod.emulator.url}", token: "\${prodToken}" }`,
          "  prodLabel:",
          "    type: forge:index:GroupLabel",
          '    properties: { group: acme, name: prod-label, color: "#FF0000" }',
          '    options: { provider: "${prod}" }',
          "  agentTokens:",
          "    type: forge:index:RotatingClusterAgentToken",
          `    properties: { project: acme/web, agentId: ${made["agent"]}, name: deploy, rotateAfter: 720h }`,
          '    options: { provider: "${prod}" }',
          "  chat:",
          "    type: forge:index:GroupIntegrationChatWebhook",
          '    properties: { group: acme, webhook: "https://chat.prod.example/hooks/a", pushChannel: "https://chat.prod.example/hooks/pushes" }',
          '    options: { provider: "${prod}" }',
          "  handRead:",
          "    type: forge:index:GroupLabel",
          `    get: { id: "acme:${made["hand"]}" }`,
          '    options: { provider: "${prod}" }',
          "",
        ].join("\n"),
      },
    });
    await yaml.ok(["up", "--yes", "--skip-preview"]);
    writeFileSync(fleetFile(), `stacks:\n  - { stack: test, cwd: ${yaml.dir} }\n`);
  }, OP_TIMEOUT);

  afterAll(async () => {
    yaml?.close();
    await stagingApi?.close();
    await closeClients();
    await Promise.all([prod?.close(), staging?.close()]);
  });

  it(
    "forge-drift --unmanaged on A: the prod label and the rotating resource's token are held, the hand-made label a get: reads is not; on B the stack holds nothing",
    async () => {
      const run = await bin(DRIFT_BIN, yaml, "A", "--unmanaged", "--stacks-file", fleetFile(), "--group", "acme", "--format", "json");
      expect(run.code, run.stderr).toBe(4);
      const report = unmanagedReportSchema.parse(JSON.parse(run.stdout));
      expect(report.stacks.map((stack) => [stack.label, stack.status])).toEqual([["two-forges/test", "read"]]);
      const unmanaged = report.unmanaged.map((object) => `${object.kind} ${object.name}`);
      expect(unmanaged).toContain("GroupLabel hand-made");
      expect(unmanaged).not.toContain("GroupLabel prod-label");
      expect(unmanaged.filter((entry) => entry.startsWith("ClusterAgentToken"))).toEqual([]);
      expect(report.possiblyHeld).toEqual([]);

      const onB = await bin(DRIFT_BIN, yaml, "B", "--unmanaged", "--stacks-file", fleetFile(), "--group", "acme", "--format", "json");
      const reportB = unmanagedReportSchema.parse(JSON.parse(onB.stdout));
      expect(reportB.stacks.map((stack) => [stack.status, stack.resources, stack.elsewhere.resources])).toEqual([["elsewhere", 0, 3]]);
      // B's labels whose ids are A's are B's own: unmanaged there, never "held" by the stack on A.
      expect(reportB.summary.held).toBe(0);
    },
    OP_TIMEOUT,
  );

  it(
    "forge-adopt --unmanaged --stacks-file writes the hand-made label alone, not what the stack holds on A",
    async () => {
      const out = join(yaml.work, "adopted.yaml");
      const run = await bin(
        ADOPT_BIN,
        yaml,
        "A",
        "--unmanaged",
        "--stacks-file",
        fleetFile(),
        "--group",
        "acme",
        "--language",
        "yaml",
        "--out",
        out,
      );
      expect(run.code, run.stderr).toBe(0);
      const program = readFileSync(out, "utf8");
      expect(program).toContain(`acme:${made["hand"]}`);
      expect(program).not.toContain("prod-label");
      expect(program).not.toContain("forge:index:ClusterAgentToken");
    },
    OP_TIMEOUT,
  );

  it(
    "drift: a prod label and a secret channel changed by hand on A are found by the fleet check and by one stack's refresh; B's unrelated integration is not",
    async () => {
      const resources = await yaml.resources();
      const label = resources.find((resource) => resource.urn.endsWith("::prodLabel"))!;
      await prod.api.request("PUT", "/groups/:group/labels/:labelId", {
        group: "acme",
        labelId: label.outputs!["labelId"],
        color: "#123456",
      });
      await prod.api.request(routes.groupIntegrations.bySlug["chat-webhook"].set, {
        group: "acme",
        webhook: "https://chat.prod.example/hooks/a",
        push_channel: "https://chat.prod.example/hooks/changed-by-hand",
      });
      const fleet = await bin(DRIFT_BIN, yaml, "B", "--stacks-file", fleetFile(), "--format", "json");
      expect(fleet.code, fleet.stderr).toBe(2);
      const drifted = (JSON.parse(fleet.stdout) as { stacks: { drifted: { name: string; fields: { field: string }[] }[] }[] }).stacks[0]!
        .drifted;
      expect(drifted.map((resource) => [resource.name, resource.fields.map((field) => field.field)])).toEqual([
        ["chat", ["pushChannel"]],
        ["prodLabel", ["color"]],
      ]);

      const one = await bin(DRIFT_BIN, yaml, "B", "--stack", "test", "--format", "json");
      expect(one.code, one.stderr).toBe(2);
      const report = JSON.parse(one.stdout) as {
        drifted: { name: string; fields: { field: string; program: unknown; forge: unknown }[] }[];
      };
      expect(report.drifted.map((resource) => resource.name).sort()).toEqual(["chat", "prodLabel"]);
      expect(report.drifted.find((resource) => resource.name === "chat")!.fields).toEqual([
        { field: "pushChannel", program: "[secret]", forge: "[secret]" },
      ]);
      expect(`${one.stdout}${one.stderr}${fleet.stdout}`).not.toContain("changed-by-hand");
      await yaml.ok(["up", "--yes", "--skip-preview", "--refresh"]);
    },
    OP_TIMEOUT,
  );

  it(
    "forge-recover: a killed rotation's pending update without an id is found, the token it may have made is named and revoked only on --revoke",
    async () => {
      // What a rotation killed mid-run leaves: the update pending (the engine wrote no id into
      // this one), and a token of the agent the stack does not hold.
      // `pulumi stack import` drops pending operations: the file backend's state is written as the killed run left it.
      const file = join(yaml.work, "backend", ".pulumi", "stacks", "two-forges", "test.json");
      const state = JSON.parse(readFileSync(file, "utf8")) as {
        checkpoint: { latest: { resources: { urn: string; id?: string }[]; pending_operations?: unknown[] } };
      };
      const tokens = state.checkpoint.latest.resources.find((resource) => resource.urn.endsWith("::agentTokens"))!;
      state.checkpoint.latest.pending_operations = [{ type: "updating", resource: { ...tokens, id: undefined } }];
      writeFileSync(file, JSON.stringify(state));
      const leftover = (
        await prod.api.request<{ id: number }>(routes.clusterAgentTokens.create, {
          project: "acme/web",
          agentId: made["agent"],
          name: "killed",
        })
      ).body.id;
      const importId = `acme/web:${made["agent"]}:${leftover}`;

      const run = await bin(RECOVER_BIN, yaml, "B", "--stack", "test");
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(2);
      expect(run.stdout).toContain("1 pending update");
      expect(run.stdout).toMatch(new RegExp(`agentTokens: .*token ${leftover} \\(import id ${importId}.*Its rotation was killed mid-run`));
      expect(run.stdout).toContain(`--revoke agentTokens=${importId}`);
      const active = async () =>
        (await prod.api.list<{ id: number }>(routes.clusterAgentTokens.list, { project: "acme/web", agentId: made["agent"] })).map(
          (token) => token.id,
        );
      expect(await active()).toContain(leftover);

      const revoke = await bin(RECOVER_BIN, yaml, "B", "--stack", "test", "--revoke", `agentTokens=${importId}`);
      expect(revoke.stdout).toMatch(new RegExp(`revoke  agentTokens: revoked token ${leftover} `));
      expect(await active()).not.toContain(leftover);
    },
    OP_TIMEOUT,
  );
});
