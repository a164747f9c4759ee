/**
 * Import with the real Pulumi CLI: pulumi-forge's classes adopt existing objects through the
 * `import` resource option, while a plain dynamic resource cannot be imported by engine 3.259.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENT_PROJECT, DECLARED_CENSUS, EMPTY_CENSUS, ENV_PROJECT, ForgeApi, SCOPE_PROJECT, type Rec } from "./forge-api";
import { startE2eWorld, type E2eWorld } from "./harness";
import { FAKE_CERT, FAKE_KEY } from "./secrets-fixture";

const OP_TIMEOUT = 300_000;

let world: E2eWorld;
let forge: ForgeApi;

describe("e2e: import", () => {
  beforeAll(async () => {
    world = await startE2eWorld();
    forge = new ForgeApi(world.api);
  }, OP_TIMEOUT);

  afterAll(async () => {
    await world?.close();
  });

  it("the import option adopts existing objects of every type, with no diff afterwards", async () => {
    // The objects, made through the API exactly as test/e2e/programs/all declares them by default.
    const label = await forge.send("POST", "/groups/:group/labels", { group: "acme", name: "e2e::bug", color: "#FF0000", description: "end-to-end" });
    await forge.send("POST", "/groups/:group/labels/:id/subscribe", { group: "acme", id: label["id"] });
    const message = await forge.send("POST", "/broadcast_messages", {
      message: "e2e maintenance window",
      starts_at: "2031-01-01T00:00:00Z",
      ends_at: "2031-01-01T04:00:00Z",
      target_access_levels: [30, 40],
      broadcast_type: "banner",
      theme: "light-indigo",
    });
    const agent = (name: string) => forge.send("POST", "/projects/:project/cluster_agents", { project: AGENT_PROJECT, name });
    const jwtAgent = await agent("e2e-jwt");
    const mtlsAgent = await agent("e2e-mtls");
    const token = (name: string, description: string) =>
      forge.send("POST", "/projects/:project/cluster_agents/:agentId/tokens", { project: AGENT_PROJECT, agentId: jwtAgent["id"], name, description });
    const token1 = await token("e2e-one", "e2e token 1");
    const token2 = await token("e2e-two", "e2e token 2");
    const urlConfig = (agentId: unknown, params: Rec) =>
      forge.send("POST", "/projects/:project/cluster_agents/:agentId/url_configurations", { project: AGENT_PROJECT, agentId, ...params });
    const jwtUrl = await urlConfig(jwtAgent["id"], { url: "grpcs://jwt.e2e.example.com:443" });
    const mtlsUrl = await urlConfig(mtlsAgent["id"], {
      url: "grpcs://mtls.e2e.example.com:443",
      client_cert: FAKE_CERT,
      client_key: FAKE_KEY,
      tls_host: "mtls.e2e.example.com",
    });
    await forge.send("PATCH", "/projects/:project/job_token_scope", { project: SCOPE_PROJECT, enabled: true });
    await forge.send("POST", "/projects/:project/job_token_scope/allowlist", { project: SCOPE_PROJECT, target_project_id: 1 });
    await forge.send("POST", "/projects/:project/job_token_scope/groups_allowlist", { project: SCOPE_PROJECT, target_group_id: 2 });
    await forge.send("POST", "/projects/:project/protected_environments", {
      project: ENV_PROJECT,
      name: "e2e-production",
      deploy_access_levels: [{ access_level: 40 }],
      approval_rules: [{ user_id: 2, required_approvals: 1 }],
    });
    await forge.send("POST", "/groups/:group/protected_environments", {
      group: "acme",
      name: "production",
      deploy_access_levels: [{ access_level: 40 }],
      required_approval_count: 1,
    });
    expect(await forge.census()).toEqual(DECLARED_CENSUS);

    const importIds = {
      label: `acme:${label["id"]}`,
      subscription: `acme:${label["id"]}`,
      message: `${message["id"]}`,
      "jwt-agent": `${AGENT_PROJECT}:${jwtAgent["id"]}`,
      "mtls-agent": `${AGENT_PROJECT}:${mtlsAgent["id"]}`,
      "token-1": `${AGENT_PROJECT}:${jwtAgent["id"]}:${token1["id"]}`,
      "token-2": `${AGENT_PROJECT}:${jwtAgent["id"]}:${token2["id"]}`,
      "jwt-url": `${AGENT_PROJECT}:${jwtAgent["id"]}:${jwtUrl["id"]}`,
      "mtls-url": `${AGENT_PROJECT}:${mtlsAgent["id"]}:${mtlsUrl["id"]}`,
      scope: SCOPE_PROJECT,
      "allow-project": `${SCOPE_PROJECT}:1`,
      "allow-group": `${SCOPE_PROJECT}:2`,
      "project-env": `${ENV_PROJECT}:e2e-production`,
      "group-env": "acme:production",
    };
    const stack = await world.stack("all", "adopt");
    await stack.setConfig({ clientCert: FAKE_CERT, clientKey: { value: FAKE_KEY, secret: true }, importIds: JSON.stringify(importIds) });

    const mark = (await world.requests()).at(-1)?.seq ?? 0;
    const up = await stack.up();
    // The classes turn the import option into an adoption inside create: a "create" step each.
    expect(up.steps).toEqual(Object.fromEntries(Object.keys(importIds).map((name) => [name, ["create"]])));
    // Adopted, not made: the forge saw reads only, and holds the same objects as before.
    const writes = (await world.requests(mark)).filter((r) => r.method !== "GET");
    expect(writes).toEqual([]);
    expect(await forge.census()).toEqual(DECLARED_CENSUS);
    const ids = (await stack.outputs())["ids"]?.value as Record<string, unknown>;
    expect(ids).toEqual({
      label: importIds.label,
      subscription: importIds.subscription,
      message: importIds.message,
      jwtAgent: importIds["jwt-agent"],
      mtlsAgent: importIds["mtls-agent"],
      tokens: [importIds["token-1"], importIds["token-2"]],
      jwtUrl: importIds["jwt-url"],
      mtlsUrl: importIds["mtls-url"],
      scope: importIds.scope,
      allowProject: importIds["allow-project"],
      allowGroup: importIds["allow-group"],
      projectEnv: importIds["project-env"],
      groupEnv: importIds["group-env"],
    });

    // No diff afterwards, with the import option still there or removed.
    expect(Object.keys((await stack.preview()).changes)).toEqual(["same"]);
    await stack.removeConfig("importIds");
    const preview = await stack.preview();
    expect(Object.keys(preview.changes)).toEqual(["same"]);

    // Adopted objects are managed: destroy deletes them.
    await stack.destroy();
    expect(await forge.census()).toEqual(EMPTY_CENSUS);
  }, OP_TIMEOUT);

  it("the raw engine cannot import a plain pulumi.dynamic.Resource", async () => {
    const stack = await world.stack("raw-import", "raw");
    const output = await stack.fails("up");
    // Engine 3.259 imports by calling the provider's Read with the id alone. The request has no
    // properties at all (so no serialized provider either), and the dynamic provider server of
    // @pulumi/pulumi fails on `req.getProperties().toJavaScript()` before any provider code runs:
    //
    //   =  pulumi-nodejs:dynamic:Resource raw **importing failed** error: Cannot read properties of undefined (reading 'toJavaScript')
    //   TypeError: Cannot read properties of undefined (reading 'toJavaScript')
    //       at ResourceProviderService.read (.../@pulumi/cmd/dynamic-provider/index.ts:272:46)
    expect(output).toContain("pulumi-nodejs:dynamic:Resource raw **importing failed** error: Cannot read properties of undefined (reading 'toJavaScript')");
    expect(output).toContain("at ResourceProviderService.read");
    expect(await stack.resourceNames()).toEqual([]);
  }, OP_TIMEOUT);
});
