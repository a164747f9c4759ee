import { describe, expect, it } from "vitest";
import { groupLabelColor } from "../../policies/rules/group-label";
import { declarations } from "../../provider/resources";
import { UNKNOWN, validateResource } from "./harness";

const label = (props: Record<string, unknown>) =>
  validateResource(groupLabelColor, { declaration: declarations.groupLabel, name: "bugs", props: { group: "acme", name: "bug", ...props } });

describe("group-label-color", () => {
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
      'GroupLabel "bugs" has color "reddish", which the forge does not accept. Use a 6-digit hex colour with a leading # (such as "#FF0000") or a CSS colour name (such as "red").',
    ]);
  });

  it("suggests the fix for hex without # and for 3-digit hex", async () => {
    expect(await label({ color: "D9534F" })).toEqual(['GroupLabel "bugs" has color "D9534F", which the forge does not accept. Add the leading #: "#D9534F".']);
    expect(await label({ color: "#F00" })).toEqual(['GroupLabel "bugs" has color "#F00", which the forge does not accept. Write it with 6 hex digits: "#FF0000".']);
  });

  it("ignores resources of other types", async () => {
    expect(await validateResource(groupLabelColor, { declaration: declarations.broadcastMessage, props: { color: "reddish" } })).toEqual([]);
  });
});
