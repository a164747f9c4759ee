/** The pack applies to resources of both faces: the dynamic classes' type tokens and the provider plugin's (`forge:index:*`). */
import { expect, it } from "vitest";
import { inputSchema } from "../../policies/input-schema";
import { limitPolicyNamed } from "../../policies/rules/limits";
import { oneResourcePerObject } from "../../policies/rules/uniqueness";
import { declarations } from "../../provider/resources";
import { pluginToken } from "../../provider/type-tokens";
import { validateResource, validateStack } from "./harness";

it("checks a plugin resource's inputs with the declaration's schema", async () => {
  const messages = await validateResource(inputSchema, {
    declaration: declarations.groupLabel,
    type: pluginToken("GroupLabel"),
    name: "bug",
    props: { group: "acme", name: "bug", color: "not-a-colour" },
  });
  expect(messages).toEqual([expect.stringMatching(/^GroupLabel "bug" has an invalid color: "not-a-colour" is not a label colour/)]);
});

it("counts plugin resources in the limits and the uniqueness, also mixed with dynamic ones", async () => {
  const token = (name: string) => ({
    declaration: declarations.clusterAgentToken,
    type: pluginToken("ClusterAgentToken"),
    name,
    props: { project: "acme/web", agentId: 1, name },
  });
  const limit = await validateStack(limitPolicyNamed("cluster-agent-token-limit"), [token("a"), token("b"), token("c")]);
  expect(limit.map((violation) => violation.message)).toEqual([
    expect.stringContaining('ClusterAgentToken "c" would be number 3 of the active tokens'),
  ]);
  const labels = await validateStack(oneResourcePerObject, [
    { declaration: declarations.groupLabel, name: "dynamic", props: { group: "acme", name: "bug", color: "red" } },
    {
      declaration: declarations.groupLabel,
      type: pluginToken("GroupLabel"),
      name: "plugin",
      props: { group: "acme", name: "bug", color: "red" },
    },
  ]);
  expect(labels).toHaveLength(1);
});
