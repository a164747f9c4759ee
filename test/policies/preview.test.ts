/**
 * The policy pack under the real engine: `pulumi preview --policy-pack policies` on small
 * programs (test/policies/programs/*), with a local file backend and the emulator as the forge;
 * and one `pulumi up`, for the stack-output check that needs a real token.
 * Needs the Pulumi CLI (test/support/pulumi-paths.ts) and a built dist/ (scripts/setup.sh).
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedToken, startEmulator, type RunningEmulator } from "../../emulator";
import { engineTestDecision, PULUMI_ROOT } from "../e2e/harness";

const ROOT = path.join(__dirname, "../..");
const PACK = path.join(ROOT, "policies");
const PROGRAMS = path.join(__dirname, "programs");
const PULUMI_BIN = path.join(PULUMI_ROOT, "bin");
const PREVIEW_TIMEOUT = 240_000;

interface Run {
  code: number;
  /** stdout and stderr, with runs of whitespace (line breaks, indentation) folded to one space. */
  text: string;
  raw: string;
}

let emulator: RunningEmulator;
let work: string;

function run(args: string[], cwd: string): Promise<Run> {
  const env = {
    ...process.env,
    PATH: `${PULUMI_BIN}${path.delimiter}${path.dirname(process.execPath)}${path.delimiter}${process.env["PATH"] ?? ""}`,
    PULUMI_BACKEND_URL: `file://${path.join(work, "backend")}`,
    PULUMI_CONFIG_PASSPHRASE: "policy-test",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_SKIP_CONFIRMATIONS: "true",
    NO_COLOR: "1",
    FORGE_BASE_URL: emulator.url,
    FORGE_TOKEN: seedToken("root"),
  };
  return new Promise((resolve) => {
    execFile(
      "pulumi",
      [...args, "--non-interactive", "--color", "never"],
      { cwd, env, maxBuffer: 32 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const raw = `${stdout}\n${stderr}`;
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, raw, text: raw.replace(/\s+/g, " ") });
      },
    );
  });
}

/**
 * A copy of a program in the temporary directory, so that stack files stay out of the
 * repository; its node_modules points at the repository's (where pulumi-forge links to the root).
 */
async function program(name: string): Promise<string> {
  const dir = path.join(work, name);
  cpSync(path.join(PROGRAMS, name), dir, { recursive: true });
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  const init = await run(["stack", "init", "test"], dir);
  if (init.code !== 0) throw new Error(`pulumi stack init failed in ${name}:\n${init.raw}`);
  return dir;
}

async function apiRequests(): Promise<unknown[]> {
  const response = await emulator.admin("/requests");
  return (await response.json()) as unknown[];
}

beforeAll(async () => {
  // An engine suite: without the CLI it fails saying how to install it (test/e2e/harness.ts).
  engineTestDecision(process.env, existsSync(path.join(PULUMI_BIN, "pulumi")));
  if (!existsSync(path.join(PULUMI_BIN, "pulumi"))) {
    throw new Error(`no Pulumi CLI in ${PULUMI_BIN}: run scripts/setup.sh (it installs the CLI and builds dist/)`);
  }
  if (!existsSync(path.join(ROOT, "dist/provider/index.js")) || !existsSync(path.join(ROOT, "node_modules/pulumi-forge"))) {
    throw new Error(
      "programs import pulumi-forge from dist/: run `npx tsc -p tsconfig.json` and `ln -sfn .. node_modules/pulumi-forge` (scripts/setup.sh does both)",
    );
  }
  work = mkdtempSync(path.join(os.tmpdir(), "forge-policy-preview-"));
  mkdirSync(path.join(work, "backend"));
  emulator = await startEmulator({ port: 0 });
});

afterAll(async () => {
  await emulator?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("pulumi preview --policy-pack policies", () => {
  it(
    "passes a compliant program without any violation (with the example config), and sends the forge no request",
    async () => {
      const dir = await program("compliant");
      const before = (await apiRequests()).length;
      // With the example config of docs/policies.md, which also shows that the CLI takes its format.
      const config = path.join(PACK, "config.example.json");
      const preview = await run(["preview", "--stack", "test", "--policy-pack", PACK, "--policy-pack-config", config], dir);
      expect(preview.code, preview.raw).toBe(0);
      expect(preview.text).toContain("forge@v0.1.0");
      expect(preview.raw).not.toMatch(/\[(mandatory|advisory)\]/);
      expect(preview.text).toContain("✅ forge@v0.1.0");
      expect(preview.text).toContain("+ 10 to create");
      expect((await apiRequests()).length).toBe(before);
    },
    PREVIEW_TIMEOUT,
  );

  it(
    "fails a program that breaks the limits, with the mandatory messages, and prints the advisory ones",
    async () => {
      const dir = await program("violating");
      const config = path.join(work, "policy-config.json");
      writeFileSync(config, JSON.stringify({ "broadcast-message-no-confidential-content": { extraPatterns: ["SEC-\\d+"] } }));
      const preview = await run(["preview", "--stack", "test", "--policy-pack", PACK, "--policy-pack-config", config], dir);
      expect(preview.code, preview.raw).not.toBe(0);

      const mandatory = [
        // Stack policies, over resources whose agent id is unknown at preview.
        'ClusterAgentUrlConfiguration "edge-url-2" would be number 2 of the URL configurations of the agentId from ClusterAgent "edge", besides ClusterAgentUrlConfiguration "edge-url"; the forge allows at most 1.',
        'ClusterAgentToken "edge-c" would be number 3 of the active tokens of the agentId from ClusterAgent "edge", besides ClusterAgentToken "edge-a" and ClusterAgentToken "edge-b"; the forge allows at most 2.',
      ];
      const advisory = [
        'ClusterAgentToken "core-a" has no description.',
        'ClusterAgentToken "core-a" is one of the 2 tokens of the agent of ClusterAgent "core"',
        'BroadcastMessage "leak" carries what looks like a forge access token (it starts with "glpat-") in its message',
        'BroadcastMessage "leak" carries an internal address (10.20.30.40, a private RFC 1918 IP) in its message',
        'BroadcastMessage "leak" carries text matching the configured pattern /SEC-\\d+/ in its message',
        'ProjectProtectedEnvironment "web-production" protects the production environment "production" without approval rules',
        'GroupProtectedEnvironment "acme-production" protects the production tier without approvals',
      ];
      for (const message of [...mandatory, ...advisory]) expect(preview.text, preview.raw).toContain(message);
      expect(preview.raw).not.toContain("xK9d8Fj3");
      expect(preview.text).not.toContain("forge-input-schema");
      for (const name of ["cluster-agent-url-configuration-one-per-agent", "cluster-agent-token-limit"]) {
        expect(preview.text).toMatch(new RegExp(`\\[mandatory\\] ${name}`));
      }
      for (const name of [
        "cluster-agent-token-description",
        "cluster-agent-token-rotation",
        "broadcast-message-no-confidential-content",
        "project-protected-environment-production-approval",
      ]) {
        expect(preview.text).toMatch(new RegExp(`\\[advisory\\] ${name}`));
      }
    },
    PREVIEW_TIMEOUT,
  );

  it(
    "reports a schema violation with the schema's message twice: in the provider's check and in forge-input-schema",
    async () => {
      // One case through the engine: both reports in the CLI's output. The messages of other
      // cases are in process: the provider's in test/unit/engine-check.test.ts (a swapped
      // certificate and key, an entry's groupInheritanceType), the policy's in cluster-agent and
      // protected-environment.test.ts. The engine stops a preview at the first resource its check
      // refuses, so each case would be a preview of its own.
      const dir = await program("schema");
      const label = await run(["preview", "--stack", "test", "--policy-pack", PACK], dir);
      expect(label.code, label.raw).not.toBe(0);
      expect(label.text).toMatch(/\[mandatory\] forge-input-schema/);
      const colour =
        '"reddish" is not a label colour the forge accepts. Use a 6-digit hex colour with a leading # (such as "#FF0000") or a CSS colour name (such as "red").';
      expect(label.text).toContain(`GroupLabel resource 'bug' has a problem: color: ${colour}`);
      expect(label.text).toContain(`GroupLabel "bug" has an invalid color: ${colour}`);
      expect(label.text).not.toContain("<nil>");
    },
    PREVIEW_TIMEOUT,
  );
});

describe("pulumi up --policy-pack policies", () => {
  it(
    "flags an agent token in the stack outputs, secret or not: stack policies see secrets unwrapped",
    async () => {
      const dir = await program("exported-token");
      const up = await run(["up", "--yes", "--skip-preview", "--stack", "test", "--policy-pack", PACK], dir);
      // Advisory only: the update succeeds, and the engine itself still knows which output is secret.
      expect(up.code, up.raw).toBe(0);
      expect(up.text).toMatch(/secretToken\s*: \[secret\]/);
      for (const output of ["plainToken", "secretToken"]) {
        expect(up.text).toContain(
          `[advisory] cluster-agent-token-not-in-stack-outputs (pulumi-nodejs:dynamic/forge:ClusterAgentToken: edge-ci)`,
        );
        expect(up.text).toContain(`Stack output "${output}" holds the secret token of ClusterAgentToken "edge-ci".`);
      }
      expect(up.text).not.toContain('Stack output "tokenId"');
    },
    PREVIEW_TIMEOUT,
  );
});
