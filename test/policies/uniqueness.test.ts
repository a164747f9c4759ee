import { describe, expect, it } from "vitest";
import { oneResourcePerObject } from "../../policies/rules/uniqueness";
import { typeToken } from "../../provider/type-tokens";
import { declarations } from "../../provider/resources";
import { UNKNOWN, urnOf, validateStack, type StackCase } from "./harness";

const list = (name: string, project: unknown, listName: unknown): StackCase => ({
  declaration: declarations.featureFlagUserList,
  name,
  props: { project, name: listName, userXids: ["u1"] },
});
const scope = (name: string, project: unknown): StackCase => ({
  declaration: declarations.jobTokenScope,
  name,
  props: { project, enabled: true },
});

describe("one-resource-per-object", () => {
  it("accepts different objects", async () => {
    expect(
      await validateStack(oneResourcePerObject, [
        list("a", "acme/web", "beta"),
        list("b", "acme/web", "gamma"),
        list("c", "acme/api", "beta"),
      ]),
    ).toEqual([]);
  });

  it("reports the second resource naming the same object, however the project is spelled", async () => {
    expect(await validateStack(oneResourcePerObject, [list("b", "ACME/web", "beta"), list("a", "acme/web", "beta ")])).toEqual([
      {
        message:
          'FeatureFlagUserList "b" declares the feature flag user list "beta" of project "ACME/web", which FeatureFlagUserList "a" already declares; the forge holds one. Keep one of the two resources.',
        urn: urnOf(typeToken(declarations.featureFlagUserList), "b"),
      },
    ]);
    expect(await validateStack(oneResourcePerObject, [scope("x", 12), scope("y", "12")])).toHaveLength(1);
  });

  it("does not mix types, and does not judge what is unknown at preview", async () => {
    expect(await validateStack(oneResourcePerObject, [list("a", "acme/web", "x"), scope("b", "acme/web")])).toEqual([]);
    expect(await validateStack(oneResourcePerObject, [list("a", UNKNOWN, "beta"), list("b", UNKNOWN, "beta")])).toEqual([]);
  });
});
