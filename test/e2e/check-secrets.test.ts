/**
 * A secret input that fails validation never reaches the CLI's output: the engine prints a failure
 * on a property with that property's value, so the provider reports failures on the resource, the
 * field's path leading the reason (and a nested path no longer prints `{<nil>}`). Real CLI, one preview.
 * An import (the `import` option of the dynamic classes) whose secret differs from the forge's is
 * refused naming the field, both values masked, and nothing is sent. (The plugin face's import:
 * test/e2e/yaml.test.ts; every kind with a secret on both faces: test/contract/life-cycle.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isSecretEnvelope, skipEngineTests, startE2eWorld, type E2eWorld } from "./harness";

describe.skipIf(skipEngineTests())("check failures in the CLI's output", () => {
  let world: E2eWorld;
  beforeAll(async () => {
    world = await startE2eWorld();
  }, 120_000);
  afterAll(async () => world?.close());

  it("name the field and the reason, never a secret's value", async () => {
    const stack = await world.stack("resources", "check-secrets");
    await stack.declare([{ type: "GroupIntegrationChatWebhook", name: "chat", inputs: { group: "acme", webhook: "BADWEBHOOKSECRET" } }]);
    const secret = await stack.fails("preview");
    expect(secret).toMatch(/resource 'chat' has a problem: webhook: The value is not an http or https address/);
    expect(secret).not.toContain("BADWEBHOOKSECRET");
    await stack.declare([
      { type: "InstanceCluster", name: "cluster", inputs: { name: "c", platformVendorAttributes: { token: "BADCLUSTERSECRET" } } },
    ]);
    const nested = await stack.fails("preview");
    expect(nested).toMatch(/resource 'cluster' has a problem: platformVendorAttributes\.apiUrl: /);
    expect(nested).not.toContain("BADCLUSTERSECRET");
    expect(nested).not.toContain("<nil>");
  }, 120_000);

  it("an import whose secret differs from the forge's fails naming the field, both values masked, and sends nothing", async () => {
    const theirs = "https://hooks.example/T0/B0/theirs-dynamic-3f1a";
    await world.api.request("PUT", "/groups/:group/integrations/chat-webhook", {
      group: "acme",
      webhook: "https://hooks.example/T0/B0/theirs",
      push_channel: theirs,
    });
    const since = (await world.requests()).at(-1)?.seq ?? 0;
    const stack = await world.stack("resources", "import-secret");
    const ours = {
      webhook: "https://hooks.example/T0/B0/ours-dynamic-webhook",
      pushChannel: "https://hooks.example/T0/B0/ours-dynamic-push",
    };
    await stack.declare([
      { type: "GroupIntegrationChatWebhook", name: "chat", inputs: { group: "acme", ...ours }, options: { import: "acme:chat-webhook" } },
    ]);
    const output = await stack.fails("up");
    expect(output).toMatch(/pushChannel: the program has \[secret\], the forge has \[secret\]/);
    expect(output).toMatch(/An import never writes, and nothing was sent/);
    for (const secret of [theirs, ...Object.values(ours)]) expect(output).not.toContain(secret);
    expect((await world.requests(since)).filter((request) => request.method !== "GET")).toEqual([]);
  }, 180_000);

  it("an output derived from a secret input is secret in the state: a label's descriptionHtml from a secret description", async () => {
    const stack = await world.stack("resources", "derived-secret");
    await stack.declare([
      {
        type: "GroupLabel",
        name: "secretive",
        inputs: { group: "acme", name: "secretive", color: "red", description: { $secret: "zebra-confidential" } },
      },
      { type: "GroupLabel", name: "open", inputs: { group: "acme", name: "open", color: "red", description: "giraffe-public" } },
    ]);
    await stack.up();
    // The forge resources as stored (the test's own program config, written in plain, is left aside).
    const resources = (
      JSON.parse(await stack.exportedStateEncrypted()) as {
        deployment: { resources: { urn: string; type: string; outputs: Record<string, unknown> }[] };
      }
    ).deployment.resources.filter((resource) => resource.type.startsWith("pulumi-nodejs:dynamic/forge:"));
    const outputsOf = (name: string) => resources.find((resource) => resource.urn.endsWith(`::${name}`))!.outputs;
    expect(JSON.stringify(resources)).not.toContain("zebra-confidential");
    expect(isSecretEnvelope(outputsOf("secretive")["descriptionHtml"])).toBe(true);
    // Control: a plain description and its HTML stay readable.
    expect(outputsOf("open")["descriptionHtml"]).toContain("giraffe-public");
    await stack.destroy();
  }, 180_000);
});
