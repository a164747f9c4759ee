/**
 * Rotation through the real CLI, on both faces, the emulator's clock moved by its admin route: a
 * preview with nothing due changes nothing; once due, forge-drift reports "rotation due" apart
 * from drift (no drift counted), and `up` says so and when (the diff's message, which a preview
 * prints too) and rotates; `pulumi stack export` holds no token value (so none outside a secret
 * envelope). Lean on purpose: the behaviour in detail is test/contract/rotation.test.ts's,
 * forge-drift's section before and after the rotation falls due and the diff's message at preview
 * included, on both faces: the real refresh here runs once, when due.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { detectDrift, formatDrift } from "../../cli/drift";
import { seedToken } from "../../emulator";
import { cliProject, PLUGIN_DIR, type CliProject } from "../e2e/cli-project";
import { skipEngineTests, startE2eWorld, type E2eWorld, type TestStack } from "../e2e/harness";

const OP_TIMEOUT = 180_000;
const MINUTE = 60_000;

describe.skipIf(skipEngineTests())("rotation through the real CLI", () => {
  let world: E2eWorld;
  let stack: TestStack;
  let yaml: CliProject;

  const advance = async (ms: number) => {
    const response = await world.emulator.admin("/clock", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ advance_ms: ms }),
    });
    expect(response.status).toBe(200);
  };
  const tokenValues = async (agentId: number) => {
    const tokens = await world.api.list<{ id: number }>("/projects/:project/cluster_agents/:agentId/tokens", {
      project: "acme/web",
      agentId,
    });
    return tokens.map((token) => token.id).sort((a, b) => a - b);
  };
  /** forge-drift's check and report (the bin's own functions, the real CLI's refresh underneath). */
  const drift = async (): Promise<{ drifted: number; stdout: string }> => {
    const report = await detectDrift({ workDir: stack.workDir, stackName: "rotation", envVars: stack.env });
    return { drifted: report.drifted.length, stdout: formatDrift(report, "text") };
  };

  beforeAll(async () => {
    world = await startE2eWorld();
    stack = await world.stack("resources", "rotation");
  }, OP_TIMEOUT);

  afterAll(async () => {
    yaml?.close();
    await world?.close();
  });

  it(
    "TypeScript: nothing due, nothing changes; due on the forge's clock, forge-drift says so apart from drift and up rotates; no token value bare in the state",
    async () => {
      await stack.declare([
        { type: "ClusterAgent", name: "agent", inputs: { project: "acme/web", name: "rotated" } },
        {
          type: "RotatingClusterAgentToken",
          name: "agentTokens",
          inputs: { project: "acme/web", agentId: { $ref: "agent.agentId" }, name: "deploy", rotateAfter: "1h" },
        },
      ]);
      await stack.up();
      const made = await stack.resources();
      const first = made.find((resource) => resource.name === "agentTokens")!.outputs;
      const agentId = made.find((resource) => resource.name === "agent")!.outputs["agentId"] as number;

      await advance(30 * MINUTE);
      expect((await stack.preview()).changes).not.toHaveProperty("update");

      await advance(31 * MINUTE);
      const due = await drift();
      expect(due.drifted).toBe(0);
      expect(due.stdout).toMatch(/^No drift in stack rotation: the forge matches the stack\.\n/);
      expect(due.stdout).toContain(
        `Rotation due in stack rotation (not drift; the next pulumi up rotates): 1 resource\n  agentTokens (RotatingClusterAgentToken): due since ${String(first["rotationDueAt"])}`,
      );
      // The diff's message, as a preview prints it, in the up that rotates (the contract layer
      // checks the message at preview on both faces).
      const up = await stack.up();
      expect(up.output).toMatch(/rotation due since .*the update makes a new token, keeps token \d+ as previous/);
      const second = (await stack.resources()).find((resource) => resource.name === "agentTokens")!.outputs;
      expect((second["previous"] as Record<string, unknown>)["tokenId"]).toBe((first["current"] as Record<string, unknown>)["tokenId"]);
      expect(await tokenValues(agentId)).toEqual(
        [(second["previous"] as { tokenId: number }).tokenId, (second["current"] as { tokenId: number }).tokenId].sort((a, b) => a - b),
      );

      const values = [second["currentToken"], second["previousToken"]] as string[];
      expect(values.every((value) => typeof value === "string" && value.length > 8)).toBe(true);
      // A value kept outside a secret envelope would be printed as it is: none printed, none bare.
      const exported = await stack.exportedStateEncrypted();
      expect(values.filter((value) => exported.includes(value))).toEqual([]);
    },
    OP_TIMEOUT * 2,
  );

  it(
    "Pulumi YAML (the plugin): up, the clock moved past rotateAfter, the preview says the rotation is due under the resource, up rotates; the export holds no token value",
    async () => {
      const program = [
        "name: forge-rotation",
        "runtime: yaml",
        "plugins:",
        "  providers:",
        "    - name: forge",
        `      path: ${PLUGIN_DIR}`,
        "resources:",
        "  agent:",
        "    type: forge:index:ClusterAgent",
        "    properties: { project: acme/web, name: rotated-yaml }",
        "  agentTokens:",
        "    type: forge:index:RotatingClusterAgentToken",
        '    properties: { project: acme/web, agentId: "${agent.agentId}", name: deploy, rotateAfter: 1h }',
        "",
      ].join("\n");
      yaml = await cliProject({
        name: "yaml-rotation",
        from: { "Pulumi.yaml": program },
        config: { "forge:baseUrl": { value: world.emulator.url }, "forge:token": { value: seedToken("root"), secret: true } },
      });
      await yaml.ok(["up", "--yes", "--skip-preview"]);
      const tokensOf = async () =>
        (await yaml.resources()).find((resource) => resource.type === "forge:index:RotatingClusterAgentToken")!.outputs!;
      const first = await tokensOf();
      await advance(61 * MINUTE);
      // The plugin's messages reach the engine's log under their resource: the preview says why and when.
      const up = await yaml.ok(["up", "--yes"]);
      expect(up).toMatch(/forge:index:RotatingClusterAgentToken agentTokens update/);
      expect(up).toMatch(
        /RotatingClusterAgentToken \(agentTokens\):\n.*rotation due since .*the update makes a new token, keeps token \d+ as previous/,
      );
      const second = await tokensOf();
      expect((second["previous"] as Record<string, unknown>)["tokenId"]).toBe((first["current"] as Record<string, unknown>)["tokenId"]);
      const exported = await yaml.exportText();
      expect(exported).toContain("ciphertext");
      expect(exported).not.toMatch(/"currentToken":\s*"/);
      expect(exported).not.toMatch(/"previousToken":\s*"/);
    },
    OP_TIMEOUT * 2,
  );
});
