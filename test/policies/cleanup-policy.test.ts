import { describe, expect, it } from "vitest";
import { inputSchema } from "../../policies/input-schema";
import { limitPolicyNamed } from "../../policies/rules/limits";

const virtualRegistryCleanupPolicyOnePerGroup = limitPolicyNamed("virtual-registry-cleanup-policy-one-per-group");
import { typeToken } from "../../provider/type-tokens";
import { declarations } from "../../provider/resources";
import { UNKNOWN, urnOf, validateResource, validateStack, type StackCase } from "./harness";

const policy = (name: string, group: unknown): StackCase => ({
  declaration: declarations.virtualRegistryCleanupPolicy,
  name,
  props: { group, cadence: 7 },
});
const policyUrn = (name: string) => urnOf(typeToken(declarations.virtualRegistryCleanupPolicy), name);

describe("virtual-registry-cleanup-policy-one-per-group", () => {
  it("accepts one policy per group", async () => {
    expect(await validateStack(virtualRegistryCleanupPolicyOnePerGroup, [policy("a", "acme"), policy("b", "globex")])).toEqual([]);
  });

  it("reports every policy after the first of the same group, however the group is spelled", async () => {
    expect(await validateStack(virtualRegistryCleanupPolicyOnePerGroup, [policy("b", "ACME"), policy("a", "acme")])).toEqual([
      {
        message:
          'VirtualRegistryCleanupPolicy "b" would be number 2 of the cleanup policies of group "ACME", besides VirtualRegistryCleanupPolicy "a"; the forge allows at most 1. Keep one of them and put every setting in it.',
        urn: policyUrn("b"),
      },
    ]);
    expect(
      await validateStack(virtualRegistryCleanupPolicyOnePerGroup, [policy("a", 12), policy("b", "12"), policy("c", 12)]),
    ).toHaveLength(2);
  });

  it("does not judge a group unknown at preview", async () => {
    expect(await validateStack(virtualRegistryCleanupPolicyOnePerGroup, [policy("a", UNKNOWN), policy("b", UNKNOWN)])).toEqual([]);
  });
});

describe("forge-input-schema on VirtualRegistryCleanupPolicy", () => {
  const check = (props: Record<string, unknown>) =>
    validateResource(inputSchema, {
      declaration: declarations.virtualRegistryCleanupPolicy,
      name: "p",
      props: { group: "acme", ...props },
    });

  it("takes the cadences and day counts at their limits", async () => {
    for (const cadence of [1, 7, 14, 30, 90]) expect(await check({ cadence })).toEqual([]);
    expect(await check({ keepNDaysAfterDownload: 1 })).toEqual([]);
    expect(await check({ keepNDaysAfterDownload: 365 })).toEqual([]);
  });

  it("refuses other cadences, days out of range and subgroups, saying what to write", async () => {
    expect(await check({ cadence: 10 })).toEqual([
      'VirtualRegistryCleanupPolicy "p" has an invalid cadence: 10 is not a cadence the forge runs cleanups at. Use 1 (daily), 7 (weekly), 14 (bi-weekly), 30 (monthly) or 90 (quarterly).',
    ]);
    expect(await check({ keepNDaysAfterDownload: 0 })).toEqual([
      'VirtualRegistryCleanupPolicy "p" has an invalid keepNDaysAfterDownload: 0 days is too few: keep entries at least 1 day after their last download.',
    ]);
    expect(await check({ keepNDaysAfterDownload: 366 })).toEqual([
      'VirtualRegistryCleanupPolicy "p" has an invalid keepNDaysAfterDownload: 366 days is too many: the forge keeps entries at most 365 days after their last download.',
    ]);
    expect((await check({ group: "acme/platform" }))[0]).toContain(
      '"acme/platform" is a subgroup; cleanup policies belong to top-level groups. Give the top-level group, such as "acme".',
    );
    expect(await check({ group: "acme%2Fplatform" })).toHaveLength(1);
  });
});
