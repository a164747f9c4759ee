/**
 * The policies of rotating credentials: the maximum age (credential-max-age), and the agent's
 * token limit, which counts a rotating resource as its two tokens.
 */
import { describe, expect, it } from "vitest";
import { credentialMaxAge } from "../../policies/rules/credential-age";
import { limitPolicyNamed } from "../../policies/rules/limits";
import { declarations } from "../../provider/resources";
import { typeToken } from "../../provider/type-tokens";
import { UNKNOWN, urnOf, validateStack, type StackCase } from "./harness";

const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();
const rotating = (name: string, props: Record<string, unknown>): StackCase => ({
  declaration: declarations.rotatingClusterAgentToken,
  name,
  props: { project: "acme/web", agentId: 1, name, ...props },
});
const urn = (name: string) => urnOf(typeToken(declarations.rotatingClusterAgentToken), name);

describe("credential-max-age", () => {
  it("accepts a schedule within the age, an unknown one at preview, and a current credential younger than it", async () => {
    expect(
      await validateStack(credentialMaxAge, [rotating("a", { rotateAfter: "30d", current: { tokenId: 3, createdAt: daysAgo(29) } })]),
    ).toEqual([]);
    expect(await validateStack(credentialMaxAge, [rotating("a", { rotateAfter: UNKNOWN })])).toEqual([]);
    expect(await validateStack(credentialMaxAge, [rotating("a", { rotateAfter: "2160h" })])).toEqual([]);
  });

  it("warns on a missing or longer rotateAfter, and on a current credential older than the age", async () => {
    expect(await validateStack(credentialMaxAge, [rotating("none", {}), rotating("long", { rotateAfter: "120d" })])).toEqual([
      {
        message: expect.stringMatching(/^RotatingClusterAgentToken "none" has no rotateAfter: .* Set rotateAfter to 90d or less\.$/),
        urn: urn("none"),
      },
      {
        message: 'RotatingClusterAgentToken "long" rotates after 120d, longer than the maximum age of 90d. Set rotateAfter to 90d or less.',
        urn: urn("long"),
      },
    ]);
    const old = daysAgo(40);
    expect(
      await validateStack(credentialMaxAge, [rotating("stale", { rotateAfter: "30d", current: { tokenId: 3, createdAt: old } })], {
        maxAge: "30d",
      }),
    ).toEqual([
      {
        message: expect.stringContaining(
          `RotatingClusterAgentToken "stale"'s current credential was made ${old} (40 days ago by this machine's clock), older than the maximum age of 30d. Run \`pulumi up\``,
        ),
        urn: urn("stale"),
      },
    ]);
    const token: StackCase = {
      declaration: declarations.clusterAgentToken,
      name: "plain",
      props: { project: "acme/web", agentId: 1, name: "plain", createdAt: old },
    };
    expect((await validateStack(credentialMaxAge, [token], { maxAge: "30d" })).map((violation) => violation.message)).toEqual([
      expect.stringContaining("declare the agent's tokens as a RotatingClusterAgentToken"),
    ]);
  });

  it("names a maxAge that is not a duration", async () => {
    expect(await validateStack(credentialMaxAge, [rotating("a", { rotateAfter: "30d" })], { maxAge: "quarterly" })).toEqual([
      { message: expect.stringContaining('maxAge "quarterly" is not a duration'), urn: undefined },
    ]);
  });
});

describe("cluster-agent-token-limit with a rotating resource", () => {
  it("counts it as two tokens: a token beside it is the third", async () => {
    const token: StackCase = {
      declaration: declarations.clusterAgentToken,
      name: "extra",
      props: { project: "acme/web", agentId: 1, name: "extra" },
    };
    const violations = await validateStack(limitPolicyNamed("cluster-agent-token-limit"), [
      rotating("pair", { rotateAfter: "30d" }),
      token,
    ]);
    expect(violations.map((violation) => violation.message)).toEqual([
      'RotatingClusterAgentToken "pair" (it holds 2: current and previous) would be number 3 of the active tokens of agent 1 of project "acme/web", besides ClusterAgentToken "extra"; the forge allows at most 2. Remove tokens until the agent has at most 2.',
    ]);
    expect(await validateStack(limitPolicyNamed("cluster-agent-token-limit"), [rotating("pair", { rotateAfter: "30d" })])).toEqual([]);
  });
});
