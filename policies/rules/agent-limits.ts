/**
 * Token rotation under the forge's limit of active tokens per cluster agent (the limit itself is
 * the declaration's, enforced by rules/limits.ts): an agent at the limit can only replace a
 * token that is deleted before its replacement is created (the API's limits and the agent
 * token's states: deleting a token revokes it).
 */
import { AGENT_TOKENS_MAX_ACTIVE } from "../../api";
import { clusterAgentToken } from "../../provider/resources/cluster-agent-token";
import { byAgent } from "../lib/agents";
import { stackPolicy } from "../lib/define";

export const clusterAgentTokenRotation = stackPolicy({
  name: "cluster-agent-token-rotation",
  description: `An agent with ${AGENT_TOKENS_MAX_ACTIVE} tokens can only replace one if it is deleted before its replacement is created.`,
  enforcementLevel: "advisory",
  resources: [clusterAgentToken],
  check({ resources, report }) {
    for (const group of byAgent(resources)) {
      if (group.members.length !== AGENT_TOKENS_MAX_ACTIVE) continue;
      for (const member of group.members) {
        if (member.resource.opts.deleteBeforeReplace === true) continue;
        report(
          `${member.subject} is one of the ${AGENT_TOKENS_MAX_ACTIVE} tokens of ${group.label}, so replacing it (any change of its inputs does) would create a third active token, which the forge refuses. ` +
            `Set the resource option deleteBeforeReplace: true on it.`,
          member.resource.urn,
        );
      }
    }
  },
});
