/** GroupLabel's colour rule lives in its schema; forge-input-schema reports the schema's message. */
import { describe, expect, it } from "vitest";
import { inputSchema } from "../../policies/input-schema";
import { declarations } from "../../provider/resources";
import { UNKNOWN, validateResource } from "./harness";

const label = (props: Record<string, unknown>) =>
  validateResource(inputSchema, { declaration: declarations.groupLabel, name: "bugs", props: { group: "acme", name: "bug", ...props } });

describe("forge-input-schema: GroupLabel color", () => {
  it("accepts 6-digit hex colours and CSS colour names", async () => {
    expect(await label({ color: "#D9534F" })).toEqual([]);
    expect(await label({ color: "#d9534f" })).toEqual([]);
    expect(await label({ color: "red" })).toEqual([]);
    expect(await label({ color: "RebeccaPurple" })).toEqual([]);
  });

  it("tolerates a colour unknown at preview", async () => {
    expect(await label({ color: UNKNOWN })).toEqual([]);
  });

  it("refuses a colour the forge does not know, naming the resource and the fix", async () => {
    expect(await label({ color: "reddish" })).toEqual([
      'GroupLabel "bugs" has an invalid color: "reddish" is not a label colour the forge accepts. Use a 6-digit hex colour with a leading # (such as "#FF0000") or a CSS colour name (such as "red").',
    ]);
    expect(await label({ color: 5 })).toEqual([
      expect.stringContaining("has an invalid color: 5 is not a label colour the forge accepts. Use a 6-digit hex colour"),
    ]);
  });

  it("suggests the fix for hex without # and for 3-digit hex", async () => {
    expect(await label({ color: "D9534F" })).toEqual([
      'GroupLabel "bugs" has an invalid color: "D9534F" is not a label colour the forge accepts. Add the leading #: "#D9534F".',
    ]);
    expect(await label({ color: "#F00" })).toEqual([
      'GroupLabel "bugs" has an invalid color: "#F00" is not a label colour the forge accepts. Write it with 6 hex digits: "#FF0000".',
    ]);
  });

  it("judges the colour even when the group is unknown at preview", async () => {
    expect(await label({ group: UNKNOWN, color: "D9534F" })).toEqual([expect.stringContaining('Add the leading #: "#D9534F".')]);
  });
});
