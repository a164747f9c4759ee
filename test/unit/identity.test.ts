/**
 * Every declaration says what makes its objects one of a kind (or why nothing does), and the
 * engine can act on it: the create's ownership rule, the policy pack's uniqueness and limits.
 */
import { describe, expect, it } from "vitest";
import { hasIdentity, inputKeys, type AnyDeclaration } from "../../provider/engine/declaration";
import { identityFinder, recoveryPlan, type RecoveryReads } from "../../provider/engine/recovery";
import { declarations } from "../../provider/resources";
import { limitPolicies } from "../../policies/rules/limits";

const all = Object.values(declarations) as AnyDeclaration[];
const noReads: RecoveryReads = {
  readRecord: async () => undefined,
  get: async () => ({}),
  list: async () => [],
  project: (record) => record,
  keyOf: (record) => String(record["id"]),
  parentId: async (_field, value) => value,
  currentUserId: async () => 1,
};

describe("identity", () => {
  it.each(all.map((declaration) => [declaration.name, declaration] as const))(
    "%s states its identity in inputs, or why it has none",
    (_name, declaration) => {
      const identity = declaration.identity;
      if (!hasIdentity(identity)) {
        expect(identity.none.trim(), "the reason nothing identifies it").not.toBe("");
        return;
      }
      expect(identity.fields.length).toBeGreaterThan(0);
      for (const field of identity.fields) expect(inputKeys(declaration), `${field} is an input`).toContain(field);
      for (const field of identity.ignoreCase ?? []) expect(identity.fields).toContain(field);
      expect(identity.describe({ group: "acme", project: "acme/web", name: "n" })).toMatch(/^the /);
    },
  );

  it.each(all.filter((declaration) => hasIdentity(declaration.identity)).map((declaration) => [declaration.name, declaration] as const))(
    "%s: a create refuses an object of its identity that is there, unless it says why it takes it over",
    (_name, declaration) => {
      const identity = declaration.identity;
      if (!hasIdentity(identity)) return;
      const plan = recoveryPlan(declaration, {}, noReads);
      const exempt = declaration.setting || identity.takesOver || declaration.hooks?.create;
      // A create hook runs the rule itself (ctx.createOwned) or takes over by design: it says so in the declaration.
      if (exempt) expect(plan.kind).toBe("none");
      else {
        expect(identityFinder(declaration, identity, {}, noReads), "the identity can be looked up").toBeDefined();
        expect(plan.kind).toBe("identity");
      }
    },
  );

  it("kinds nothing identifies prove a lost create by the newer record, or never send it twice", () => {
    const unidentified = all.filter((declaration) => !hasIdentity(declaration.identity)).map((declaration) => declaration.name);
    expect(unidentified).toEqual([
      "BroadcastMessage",
      "ClusterAgentToken",
      "RotatingClusterAgentToken",
      "ClusterAgentUrlConfiguration",
      "ErrorTrackingClientKey",
      "RotatingErrorTrackingClientKey",
      "InstanceCluster",
      "Snippet",
    ]);
    for (const name of unidentified)
      expect(
        recoveryPlan(
          all.find((declaration) => declaration.name === name)!,
          {},
          noReads,
        ).kind,
      ).toBe("newer");
  });
});

describe("limits per parent", () => {
  it("name their parent by inputs and become one policy each (a kind and its rotating kind share it)", () => {
    const limits = all.flatMap((declaration) => (declaration.limits ?? []).map((limit) => ({ declaration, limit })));
    for (const { declaration, limit } of limits) {
      for (const field of limit.per) expect(inputKeys(declaration)).toContain(field);
      expect(limit.max).toBeGreaterThan(0);
    }
    expect(limitPolicies.map((policy) => policy.name).sort()).toEqual([...new Set(limits.map(({ limit }) => limit.policy))].sort());
  });
});

describe("the declaration's vocabulary", () => {
  it("has no field only one resource uses: a single use is a route option, a field meta or a hook", () => {
    const users = new Map<string, Set<string>>();
    for (const declaration of all)
      for (const [key, value] of Object.entries(declaration))
        if (value !== undefined) users.set(key, (users.get(key) ?? new Set()).add(declaration.name));
    const single = [...users].filter(([, names]) => names.size === 1).map(([key, names]) => `${key} (${[...names][0]})`);
    expect(single).toEqual([]);
  });
});
