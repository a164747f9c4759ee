/**
 * cli/fleet.ts `forgesToProbe`: the forges a fleet check connects to before a stack's refresh
 * come from the holdings model, each resource's own provider; a forge its provider reaches
 * through a proxy is not probed directly (a direct connection would call it unreachable while
 * the refresh, through the proxy, works).
 */
import { describe, expect, it } from "vitest";
import { forgesToProbe } from "../../cli/fleet";

const provider = (name: string, inputs: Record<string, unknown>) => ({
  urn: `urn:pulumi:prod::p::pulumi:providers:forge::${name}`,
  type: "pulumi:providers:forge",
  id: `${name}-id`,
  custom: true,
  inputs,
});
const label = (name: string, providerName: string, forge?: string) => ({
  urn: `urn:pulumi:prod::p::forge:index:GroupLabel::${name}`,
  type: "forge:index:GroupLabel",
  id: `acme:${name.length}`,
  custom: true,
  provider: `urn:pulumi:prod::p::pulumi:providers:forge::${providerName}::${providerName}-id`,
  inputs: { group: "acme", name, color: "#000000" },
  outputs: forge ? { __forge: forge } : {},
});

describe("forgesToProbe", () => {
  it("probes each resource's own forge, and not one its provider reaches through a proxy", () => {
    const deployment = {
      resources: [
        provider("direct", { baseUrl: "https://staging.example.com" }),
        provider("behind", { baseUrl: "https://prod.example.com", httpsProxy: "http://proxy.example.com:3128" }),
        label("a", "direct"),
        label("b", "behind"),
        label("c", "behind", "https://prod.example.com"),
      ],
    };
    expect(forgesToProbe(deployment, {})).toEqual(["https://staging.example.com"]);
  });

  it("takes FORGE_BASE_URL for a provider that recorded no address, as a refresh would", () => {
    const deployment = { resources: [provider("env", {}), label("a", "env")] };
    expect(forgesToProbe(deployment, { FORGE_BASE_URL: "https://forge.example.com" })).toEqual(["https://forge.example.com"]);
  });
});
