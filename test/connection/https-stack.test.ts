/**
 * The CA bundle set by stack config, as users set the token, reaches the provider process the
 * Pulumi CLI starts: a stack of the e2e generic program against the emulator over HTTPS (its
 * certificate from a CA this test makes), `forge:caBundle` in the stack's config and nothing
 * in the environment. Without the setting, an update fails with the fix in the message.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { LocalWorkspace, PulumiCommand } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { PASSPHRASE, skipEngineTests, PULUMI_ROOT, REPO_ROOT, ROOT_TOKEN, TestStack } from "../e2e/harness";
import { hasOpenssl, makeCertificates, type Certificates } from "./certificates";

describe.skipIf(!hasOpenssl || skipEngineTests())("a stack against an HTTPS forge with a private CA", () => {
  let tmp: string;
  let certs: Certificates;
  let emulator: RunningEmulator;
  let stack: TestStack;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), "forge-https-stack-"));
    certs = makeCertificates(tmp);
    emulator = await startEmulator({ tls: { cert: readFileSync(certs.serverCert, "utf8"), key: readFileSync(certs.serverKey, "utf8") } });
    const workDir = join(tmp, "program");
    cpSync(join(REPO_ROOT, "test", "e2e", "programs", "resources"), workDir, { recursive: true });
    symlinkSync(join(REPO_ROOT, "node_modules"), join(workDir, "node_modules"));
    writeFileSync(join(workDir, "package.json"), JSON.stringify({ name: "forge-https-stack", private: true }));
    const pulumiHome = join(tmp, "pulumi-home");
    for (const dir of [pulumiHome, join(tmp, "backend")]) mkdirSync(dir, { recursive: true });
    const envVars: Record<string, string> = {
      PULUMI_BACKEND_URL: `file://${join(tmp, "backend")}`,
      PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_NODEJS_TRANSPILE_ONLY: "true",
      PATH: [join(PULUMI_ROOT, "bin"), dirname(process.execPath), process.env["PATH"] ?? ""].join(":"),
      FORGE_BASE_URL: emulator.url,
      FORGE_TOKEN: ROOT_TOKEN,
    };
    const pulumiCommand = await PulumiCommand.get({ root: PULUMI_ROOT });
    const workspaceStack = await LocalWorkspace.createOrSelectStack({ stackName: "tls", workDir }, { envVars, pulumiHome, pulumiCommand });
    stack = new TestStack(workspaceStack, workDir, { ...envVars, PULUMI_HOME: pulumiHome });
  }, 120_000);

  afterAll(async () => {
    await emulator?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it("up trusts the CA from forge:caBundle; without it an update names the fix", async () => {
    await stack.declare([{ type: "GroupLabel", name: "tls", inputs: { group: "acme", name: "tls::label", color: "#123456" } }]);
    await stack.setConfig({ "forge:caBundle": certs.ca });
    const up = await stack.up();
    expect(up.changes).toMatchObject({ create: 2 }); // the stack and the label
    expect((await stack.resources()).map((resource) => resource.name)).toEqual(["tls"]);

    // A refresh would configure the provider from the state (the config of the last up), so the
    // setting's absence shows on the next up: an update that must reach the forge.
    await stack.stack.removeConfig("forge:caBundle");
    await stack.declare([{ type: "GroupLabel", name: "tls", inputs: { group: "acme", name: "tls::label", color: "#654321" } }]);
    const failure = await stack.fails("up");
    expect(failure).toContain(`the forge at ${emulator.url} presents a certificate this machine does not trust`);
    expect(failure).toContain("forge:caBundle");
  }, 240_000);
});
