import { describe, expect, it } from "vitest";
import { inputSchema } from "../../policies/input-schema";
import { declarations } from "../../provider/resources";
import { UNKNOWN, validateResource } from "./harness";

describe("forge-input-schema", () => {
  it("accepts inputs that follow the schema", async () => {
    expect(
      await validateResource(inputSchema, {
        declaration: declarations.clusterAgent,
        name: "edge",
        props: { project: "acme/web", name: "edge-1" },
      }),
    ).toEqual([]);
    expect(
      await validateResource(inputSchema, { declaration: declarations.jobTokenScope, name: "web", props: { project: 12, enabled: true } }),
    ).toEqual([]);
  });

  it("tolerates values unknown at preview, also inside cross-field rules", async () => {
    expect(
      await validateResource(inputSchema, {
        declaration: declarations.clusterAgent,
        name: "edge",
        props: { project: UNKNOWN, name: UNKNOWN },
      }),
    ).toEqual([]);
    expect(
      await validateResource(inputSchema, {
        declaration: declarations.broadcastMessage,
        name: "m",
        props: { message: "hi", startsAt: UNKNOWN, endsAt: "2020-01-01T00:00:00Z" },
      }),
    ).toEqual([]);
  });

  it("reports the schema's own message, which names the allowed values and the fix", async () => {
    expect(
      await validateResource(inputSchema, {
        declaration: declarations.clusterAgent,
        name: "edge",
        props: { project: "acme/web", name: "Edge_1" },
      }),
    ).toEqual([
      'ClusterAgent "edge" has an invalid name: "Edge_1" is not a valid agent name. Use lower-case letters, digits and \'-\', not starting or ending with \'-\', such as "edge-1".',
    ]);
  });

  it("adds a generic fix to zod's built-in messages", async () => {
    expect(
      await validateResource(inputSchema, {
        declaration: declarations.jobTokenScope,
        name: "web",
        props: { project: "acme/web", enabled: "yes" },
      }),
    ).toEqual([
      'JobTokenScope "web" has an invalid enabled: invalid input: expected boolean, received string. Correct it in the program; the forge would refuse it.',
    ]);
  });

  it("reports inputs the resource does not have", async () => {
    expect(
      await validateResource(inputSchema, {
        declaration: declarations.groupLabel,
        name: "bug",
        props: { group: "acme", name: "bug", color: "red", colour: "red" },
      }),
    ).toEqual([
      'GroupLabel "bug" sets colour, which is not an input of GroupLabel. Remove it or correct its name (inputs: group, name, color, description, archived).',
    ]);
  });

  it("reports every failing field, nested ones by their path", async () => {
    expect(
      await validateResource(inputSchema, {
        declaration: declarations.broadcastMessage,
        name: "m",
        props: { message: "", font: "white" },
      }),
    ).toEqual([
      expect.stringContaining('BroadcastMessage "m" has an invalid message: is empty'),
      'BroadcastMessage "m" has an invalid font: "white" is not a hex colour. Write it as "#RGB" or "#RRGGBB", such as "#FFFFFF".',
    ]);
    expect(
      await validateResource(inputSchema, {
        declaration: declarations.projectProtectedEnvironment,
        name: "p",
        props: {
          project: "acme/web",
          name: "production",
          deployAccessLevels: [{ accessLevel: 40 }],
          approvalRules: [{ accessLevel: 40, requiredApprovals: 0 }],
        },
      }),
    ).toEqual([expect.stringContaining("has an invalid approvalRules[0].requiredApprovals: too small")]);
  });
});
