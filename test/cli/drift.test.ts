/**
 * `forge-drift` against the emulator with the real CLI: the built bin (dist/cli/forge-drift.js)
 * run as a pipeline runs it, on a stack of the e2e generic program. No drift (exit 0), a field
 * changed out of band (exit 2, program and forge values), an object deleted out of band
 * (exit 2), an unreachable forge (exit 1); the stack is never written. The formats and the
 * masking of secrets are checked on the report itself.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { driftOf, formatDrift, type DriftReport } from "../../cli/drift";
import {
  PASSPHRASE,
  skipEngineTests,
  PULUMI_ROOT,
  REPO_ROOT,
  ROOT_TOKEN,
  startE2eWorld,
  type E2eWorld,
  type TestStack,
} from "../e2e/harness";

const DRIFT_BIN = join(REPO_ROOT, "dist", "cli", "forge-drift.js");
const OP_TIMEOUT = 120_000;
const CA_CERT = "-----BEGIN CERTIFICATE-----\nMIIBdrift\n-----END CERTIFICATE-----";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe.skipIf(skipEngineTests())("forge-drift", () => {
  let world: E2eWorld;
  let stack: TestStack;
  let labelId: number;
  let token: string;

  const drift = (args: string[], forgeUrl = world.emulator.url, extraEnv: Record<string, string> = {}): Promise<Run> =>
    new Promise((resolve) => {
      const env = {
        ...process.env,
        PATH: [join(PULUMI_ROOT, "bin"), process.execPath.replace(/\/node$/, ""), process.env["PATH"] ?? ""].join(":"),
        PULUMI_BACKEND_URL: `file://${world.backendDir}`,
        PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
        PULUMI_HOME: join(world.tmp, "pulumi-home"),
        PULUMI_SKIP_UPDATE_CHECK: "true",
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
        FORGE_BASE_URL: forgeUrl,
        FORGE_TOKEN: ROOT_TOKEN,
        ...extraEnv,
      };
      execFile(
        process.execPath,
        [DRIFT_BIN, "--cwd", stack.workDir, "--stack", "drift", "--preview-only", ...args],
        { env },
        (error, stdout, stderr) => {
          resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr });
        },
      );
    });

  beforeAll(async () => {
    world = await startE2eWorld();
    stack = await world.stack("resources", "drift");
    await stack.declare([
      { type: "GroupLabel", name: "changed", inputs: { group: "acme", name: "drift::changed", color: "#FF0000", description: "declared" } },
      { type: "GroupLabel", name: "deleted", inputs: { group: "acme", name: "drift::deleted", color: "#00FF00" } },
      { type: "ClusterAgent", name: "agent", inputs: { project: "acme/web", name: "drift-agent" } },
      {
        type: "ClusterAgentToken",
        name: "token",
        inputs: { project: "acme/web", agentId: { $ref: "agent.agentId" }, name: "drift-token", description: "Drift test" },
      },
      // Drift is what the program manages: a label with no description set, a cluster whose
      // `enabled` the program leaves alone (its API URL and CA certificate are secret), a member.
      { type: "GroupLabel", name: "quiet", inputs: { group: "acme", name: "drift::quiet", color: "#00FFFF" } },
      {
        type: "InstanceCluster",
        name: "cluster",
        inputs: {
          name: "drift-cluster",
          platformVendorAttributes: { apiUrl: "https://k8s.drift.example", token: "cluster-secret-token", caCert: CA_CERT },
        },
      },
      { type: "ProjectMember", name: "member", inputs: { project: "acme/web", user: "nomad", accessLevel: 30 } },
    ]);
    await stack.up();
    const resources = await stack.resources();
    labelId = resources.find((r) => r.name === "changed")!.outputs["labelId"] as number;
    token = resources.find((r) => r.name === "token")!.outputs["token"] as string;
  }, OP_TIMEOUT * 2);

  afterAll(async () => {
    await world?.close();
  });

  // Each run of the bin is a refresh: every format is run once (text without drift is also the
  // installed bin's, test/consumer/package.test.ts), and the others of the same report are checked
  // on formatDrift, which the bin writes.
  it(
    "exits 0 and says so when the forge matches the stack (markdown)",
    async () => {
      const run = await drift(["--format", "markdown"]);
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(run.stdout).toBe("### No drift in stack `drift`\n\nThe forge matches the stack.\n");
      expect(formatDrift({ stack: "drift", drifted: [] }, "text")).toBe("No drift in stack drift: the forge matches the stack.\n");
    },
    OP_TIMEOUT,
  );

  it(
    "exits 2 with each changed field, the program's value and the forge's, and a deletion; the stack is untouched",
    async () => {
      await world.api.request("PUT", "/groups/:group/labels/:id", {
        group: "acme",
        id: labelId,
        description: "changed by hand",
        color: "#0000FF",
      });
      const deleted = (await stack.resources()).find((r) => r.name === "deleted")!;
      await world.api.request("DELETE", "/groups/:group/labels/:id", { group: "acme", id: deleted.outputs["labelId"] });
      const before = JSON.stringify(await stack.exportedState());

      const run = await drift(["--format", "json"]);
      expect(run.code).toBe(2);
      const report = JSON.parse(run.stdout) as DriftReport;
      expect(report.stack).toBe("drift");
      const byName = Object.fromEntries(report.drifted.map((resource) => [resource.name, resource]));
      expect(Object.keys(byName).sort()).toEqual(["changed", "deleted"]);
      expect(byName["deleted"]).toMatchObject({ drift: "deleted", type: "pulumi-nodejs:dynamic/forge:GroupLabel", fields: [] });
      expect(byName["changed"]!.drift).toBe("changed");
      expect(byName["changed"]!.fields).toEqual(
        expect.arrayContaining([
          { field: "description", program: "declared", forge: "changed by hand" },
          { field: "color", program: "#FF0000", forge: "#0000FF" },
        ]),
      );
      expect(run.stdout).not.toContain(token);
      // Nothing was written: the state is what `up` left.
      expect(JSON.stringify(await stack.exportedState())).toBe(before);

      const text = await drift([]);
      expect(text.code).toBe(2);
      expect(text.stdout).toBe(formatDrift(report, "text"));
      expect(text.stdout).toContain('description: program "declared", forge "changed by hand"');
      expect(text.stdout).toContain("deleted (GroupLabel): deleted on the forge");
      expect(formatDrift(report, "markdown")).toContain('| `description` | `"declared"` | `"changed by hand"` |');
    },
    OP_TIMEOUT * 3,
  );

  it(
    "reports what the program manages: a secret changed by hand (masked), an input, not a field the program never set",
    async () => {
      const resources = await stack.resources();
      const quiet = resources.find((r) => r.name === "quiet")!;
      const cluster = resources.find((r) => r.name === "cluster")!;
      const member = resources.find((r) => r.name === "member")!;
      const newCa = "-----BEGIN CERTIFICATE-----\nMIIBbyhand\n-----END CERTIFICATE-----";
      await world.api.request("PUT", "/groups/:group/labels/:id", {
        group: "acme",
        id: quiet.outputs["labelId"],
        description: "set by hand",
      });
      await world.api.request("PUT", "/admin/clusters/:id", {
        id: cluster.outputs["clusterId"],
        enabled: false,
        platform_vendor_attributes: { ca_cert: newCa },
      });
      await world.api.request("PUT", "/projects/:project/members/:user", {
        project: "acme/web",
        user: member.outputs["userId"],
        access_level: 40,
      });

      const run = await drift(["--format", "json"]);
      expect(run.code).toBe(2);
      const report = JSON.parse(run.stdout) as DriftReport;
      const byName = Object.fromEntries(report.drifted.map((resource) => [resource.name, resource]));
      // Set by hand on a field the program never set: not drift (the engine agrees: no change).
      expect(byName["quiet"]).toBeUndefined();
      // The CA certificate changed: reported, its value hidden; `enabled` (not in the program) is not drift.
      expect(byName["cluster"]!.fields).toEqual([{ field: "platformVendorAttributes", program: "[secret]", forge: "[secret]" }]);
      // No seeded secret anywhere in what it printed: the CA certificates, the cluster's token and
      // API URL (inside its secret attributes), the agent's token.
      for (const secret of ["MIIB", "cluster-secret-token", "k8s.drift.example", token])
        expect(`${run.stdout}\n${run.stderr}`).not.toContain(secret);
      // The member's role is drift; the level granted with it is named apart, once.
      expect(byName["member"]!.fields).toEqual([{ field: "accessLevel", program: 30, forge: 40 }]);
      expect(byName["member"]!.alsoChanged).toContain("grantedAccessLevel");
      const text = formatDrift(report, "text");
      expect(text).toContain('platformVendorAttributes: program "[secret]", forge "[secret]"');
      expect(text).not.toMatch(/enabled: program/);
    },
    OP_TIMEOUT * 3,
  );

  it(
    "exits 1 with the refresh's error when the forge is unreachable",
    async () => {
      // Refused connections are retried for the retry budget (a forge restarting): a short one here.
      const run = await drift([], "http://127.0.0.1:9", { FORGE_RETRY_BUDGET_MS: "2000" });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/forge-drift: the refresh failed, drift unknown/);
      expect(run.stderr).toMatch(/ECONNREFUSED/);
      expect(run.stdout).toBe("");
    },
    OP_TIMEOUT,
  );

  it("exits 1 on a bad argument", async () => {
    const run = await drift(["--format", "yaml"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("unknown --format yaml");
  });
});

describe("drift reports", () => {
  const secret = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "abc" };

  it("mask secret values, ignore the engine's own fields, and name server-side changes apart from drift", () => {
    const found = driftOf({
      op: "refresh",
      urn: "urn:pulumi:s::p::pulumi-nodejs:dynamic/forge:ClusterAgentToken::t",
      type: "pulumi-nodejs:dynamic/forge:ClusterAgentToken",
      provider: "",
      old: {
        type: "",
        urn: "",
        custom: true,
        delete: false,
        id: "1",
        parent: "",
        protect: false,
        provider: "",
        inputs: { description: "a" },
        outputs: { description: "a", appliedInputs: ["description"], token: secret, __provider: "a", status: "active" },
      },
      new: {
        type: "",
        urn: "",
        custom: true,
        delete: false,
        id: "1",
        parent: "",
        protect: false,
        provider: "",
        inputs: {},
        outputs: { description: "b", appliedInputs: ["description"], token: "[secret]", __provider: "b", status: "revoked" },
      },
    } as never);
    expect(found?.fields).toEqual([{ field: "description", program: "a", forge: "b" }]);
    expect(found?.alsoChanged).toEqual(["token", "status"]);
  });

  it("compare secrets in plain and show them masked", () => {
    const found = driftOf(
      {
        op: "refresh",
        urn: "urn:pulumi:s::p::pulumi-nodejs:dynamic/forge:GroupLabel::l",
        type: "pulumi-nodejs:dynamic/forge:GroupLabel",
        provider: "",
        old: {
          type: "",
          urn: "",
          custom: true,
          delete: false,
          id: "1",
          parent: "",
          protect: false,
          provider: "",
          inputs: { description: "old secret" },
          outputs: { description: "old secret", appliedInputs: ["description"] },
        },
        new: {
          type: "",
          urn: "",
          custom: true,
          delete: false,
          id: "1",
          parent: "",
          protect: false,
          provider: "",
          inputs: {},
          outputs: { description: "new secret", appliedInputs: ["description"] },
        },
      } as never,
      new Set(["description"]),
    );
    expect(found?.fields).toEqual([{ field: "description", program: "[secret]", forge: "[secret]" }]);
  });

  it("read well as markdown when nothing drifted", () => {
    expect(formatDrift({ stack: "prod", drifted: [] }, "markdown")).toBe("### No drift in stack `prod`\n\nThe forge matches the stack.\n");
  });
});
