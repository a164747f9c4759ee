/**
 * Limits that span resources, which no single resource's schema can see: one URL configuration
 * and two active tokens per cluster agent (spec document 1, "Limits" and "States and
 * transitions"; document 2, "Receptive agent URL configurations" and "Agent tokens").
 */
import { clusterAgentToken } from "../../provider/resources/cluster-agent-token";
import { clusterAgentUrlConfiguration } from "../../provider/resources/cluster-agent-url-configuration";
import { byAgent } from "../lib/agents";
import { stackPolicy } from "../lib/define";

export const clusterAgentUrlConfigurationOnePerAgent = stackPolicy({
  name: "cluster-agent-url-configuration-one-per-agent",
  description: "A cluster agent has at most one URL configuration.",
  enforcementLevel: "mandatory",
  resources: [clusterAgentUrlConfiguration],
  check({ resources, report }) {
    for (const group of byAgent(resources)) {
      const [first, ...extra] = group.members;
      if (!first) continue;
      for (const member of extra) {
        report(
          `${member.subject} is a second URL configuration of ${group.label}, which ${first.subject} already configures; an agent can have only one. ` +
            `Keep one of them (to change it, edit that one: a replacement deletes the old configuration first).`,
          member.resource.urn,
        );
      }
    }
  },
});

/** The forge's limit of active tokens per agent. Every token in a stack is active: revoking one deletes it. */
const MAX_ACTIVE_TOKENS = 2;

export const clusterAgentTokenLimit = stackPolicy({
  name: "cluster-agent-token-limit",
  description: `A cluster agent has at most ${MAX_ACTIVE_TOKENS} active tokens.`,
  enforcementLevel: "mandatory",
  resources: [clusterAgentToken],
  check({ resources, report }) {
    for (const group of byAgent(resources)) {
      if (group.members.length <= MAX_ACTIVE_TOKENS) continue;
      const kept = group.members.slice(0, MAX_ACTIVE_TOKENS).map((member) => member.subject).join(" and ");
      for (const member of group.members.slice(MAX_ACTIVE_TOKENS)) {
        report(
          `${member.subject} would be token number ${group.members.indexOf(member) + 1} of ${group.label}, besides ${kept}; the forge refuses a third active token. ` +
            `Remove tokens until the agent has at most ${MAX_ACTIVE_TOKENS}.`,
          member.resource.urn,
        );
      }
    }
  },
});

export const clusterAgentTokenRotation = stackPolicy({
  name: "cluster-agent-token-rotation",
  description: `An agent with ${MAX_ACTIVE_TOKENS} tokens can only replace one if it is deleted before its replacement is created.`,
  enforcementLevel: "advisory",
  resources: [clusterAgentToken],
  check({ resources, report }) {
    for (const group of byAgent(resources)) {
      if (group.members.length !== MAX_ACTIVE_TOKENS) continue;
      for (const member of group.members) {
        if (member.resource.opts.deleteBeforeReplace === true) continue;
        report(
          `${member.subject} is one of the ${MAX_ACTIVE_TOKENS} tokens of ${group.label}, so replacing it (any change of its inputs does) would create a third active token, which the forge refuses. ` +
            `Set the resource option deleteBeforeReplace: true on it.`,
          member.resource.urn,
        );
      }
    }
  },
});
