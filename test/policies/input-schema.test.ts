import { describe, expect, it } from "vitest";
import { policies } from "../../policies/all";
import { pathPattern } from "../../policies/input-schema";
import { declarations } from "../../provider/resources";
import { UNKNOWN, validateResource } from "./harness";

const schema = policies.find((policy) => policy.name === "forge-input-schema")!;

describe("forge-input-schema", () => {
  it("accepts inputs that follow the schema", async () => {
    expect(await validateResource(schema, { declaration: declarations.clusterAgent, name: "edge", props: { project: "acme/web", name: "edge-1" } })).toEqual([]);
    expect(await validateResource(schema, { declaration: declarations.jobTokenScope, name: "web", props: { project: 12, enabled: true } })).toEqual([]);
  });

  it("tolerates values unknown at preview, also inside cross-field rules", async () => {
    expect(await validateResource(schema, { declaration: declarations.clusterAgent, name: "edge", props: { project: UNKNOWN, name: UNKNOWN } })).toEqual([]);
    expect(
      await validateResource(schema, {
        declaration: declarations.broadcastMessage,
        name: "m",
        props: { message: "hi", startsAt: UNKNOWN, endsAt: "2020-01-01T00:00:00Z" },
      }),
    ).toEqual([]);
  });

  it("reports a schema rule of a resource without policies of its own, naming resource, field and fix", async () => {
    expect(await validateResource(schema, { declaration: declarations.clusterAgent, name: "edge", props: { project: "acme/web", name: "Edge_1" } })).toEqual([
      'ClusterAgent "edge" has an invalid name: must be lower-case letters, digits and \'-\', not starting or ending with \'-\'. Correct it in the program; the forge would refuse it.',
    ]);
    expect(await validateResource(schema, { declaration: declarations.jobTokenScope, name: "web", props: { project: "acme/web", enabled: "yes" } })).toEqual([
      'JobTokenScope "web" has an invalid enabled: invalid input: expected boolean, received string. Correct it in the program; the forge would refuse it.',
    ]);
  });

  it("reports inputs the resource does not have", async () => {
    expect(await validateResource(schema, { declaration: declarations.groupLabel, name: "bug", props: { group: "acme", name: "bug", color: "red", colour: "red" } })).toEqual([
      'GroupLabel "bug" sets colour, which is not an input of GroupLabel. Remove it or correct its name (inputs: group, name, color, description, archived).',
    ]);
  });

  it("reports schema rules on fields that no specific policy covers", async () => {
    expect(
      await validateResource(schema, {
        declaration: declarations.broadcastMessage,
        name: "m",
        props: { message: "", font: "white" },
      }),
    ).toEqual([expect.stringContaining('BroadcastMessage "m" has an invalid message: too small'), expect.stringContaining('has an invalid font: must be a hex colour such as #FFFFFF')]);
    expect(
      await validateResource(schema, {
        declaration: declarations.projectProtectedEnvironment,
        name: "p",
        props: { project: "acme/web", name: "production", deployAccessLevels: [{ accessLevel: 40 }], approvalRules: [{ accessLevel: 40, requiredApprovals: 0 }] },
      }),
    ).toEqual([expect.stringContaining("has an invalid approvalRules[0].requiredApprovals: too small")]);
  });

  it("leaves to the specific policies the rules they report in their own words", async () => {
    expect(await validateResource(schema, { declaration: declarations.groupLabel, name: "bug", props: { group: "acme", name: "bug", color: "reddish" } })).toEqual([]);
    expect(
      await validateResource(schema, {
        declaration: declarations.broadcastMessage,
        name: "m",
        props: { message: "hi", theme: "red", broadcastType: "notification", targetAccessLevels: [60], startsAt: "2026-01-02T00:00:00Z", endsAt: "2026-01-01T00:00:00Z" },
      }),
    ).toEqual([]);
    expect(
      await validateResource(schema, {
        declaration: declarations.groupProtectedEnvironment,
        name: "g",
        props: { group: "acme", name: "prod", deployAccessLevels: [{ accessLevel: 50, userId: 1 }] },
      }),
    ).toEqual([]);
    expect(
      await validateResource(schema, {
        declaration: declarations.clusterAgentUrlConfiguration,
        name: "u",
        props: { project: 1, agentId: 2, url: "grpcs://a.example:443", clientCert: "-----BEGIN CERTIFICATE-----" },
      }),
    ).toEqual([]);
  });

  it("normalises list indexes in paths", () => {
    expect(pathPattern("deployAccessLevels[12].accessLevel")).toBe("deployAccessLevels[].accessLevel");
    expect(pathPattern("approvalRules[0]")).toBe("approvalRules[]");
  });
});
