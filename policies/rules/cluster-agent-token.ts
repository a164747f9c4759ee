/**
 * ClusterAgentToken: at most two active tokens per agent (spec document 1, "Limits" and
 * "States and transitions"; document 2, "Agent tokens"), and good practice around a secret that
 * the forge shows only once.
 */
import { clusterAgentToken } from "../../provider/resources/cluster-agent-token";
import { byAgent } from "../lib/agents";
import { resourcePolicy, resourceRules, stackPolicy } from "../lib/define";
import { isKnown, plain, show } from "../lib/values";

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

export const clusterAgentTokenDescription = resourcePolicy<{ minLength: number }>({
  name: "cluster-agent-token-description",
  description: "An agent token has a description saying what it is for, so that whoever finds it in the forge knows whether it can be revoked.",
  enforcementLevel: "advisory",
  resources: [clusterAgentToken],
  config: {
    minLength: { type: "integer", minimum: 1, default: 1, description: "The shortest description accepted (characters, surrounding spaces ignored)." },
  },
  check({ inputs, subject, config, report }) {
    const description = inputs["description"];
    if (description !== undefined && description !== null && !isKnown(description)) return;
    const text = typeof description === "string" ? description.trim() : "";
    if (text.length >= config.minLength) return;
    report(
      text.length === 0
        ? `${subject} has no description. Add one saying what the token is for and who uses it, such as "CI deployer for acme/web".`
        : `${subject} has the description ${show(text)}, shorter than ${config.minLength} characters. Say what the token is for and who uses it.`,
    );
  },
});

const STACK_TYPE = "pulumi:pulumi:Stack";

export const clusterAgentTokenNotInStackOutputs = stackPolicy<{ allowedOutputs: string[] }>({
  name: "cluster-agent-token-not-in-stack-outputs",
  description:
    "An agent token's secret value stays out of the stack outputs; policies cannot see whether an output is secret, so any output holding it is reported.",
  enforcementLevel: "advisory",
  resources: [clusterAgentToken],
  config: {
    allowedOutputs: {
      type: "array",
      items: { type: "string" },
      default: [],
      description: "Stack outputs checked by hand to be exported as secrets (pulumi.secret); they are not reported.",
    },
  },
  check({ resources, all, config, report }) {
    // The root stack resource's props are the stack outputs.
    const outputs = all.filter((resource) => resource.type === STACK_TYPE).flatMap((stack) => Object.entries(plain(stack.props)));
    if (outputs.length === 0) return;
    for (const token of resources) {
      const value = token.props["token"];
      if (!isKnown(value) || typeof value !== "string" || value.length < 8) continue;
      for (const [name, output] of outputs) {
        if (config.allowedOutputs.includes(name) || !contains(output, value)) continue;
        report(
          `Stack output ${show(name)} holds the secret token of ${token.subject}. Policies see secrets unwrapped, so this one cannot tell whether it is exported as a secret: ` +
            `keep the token out of stack outputs, or export it wrapped in pulumi.secret() and add ${show(name)} to this policy's allowedOutputs.`,
          token.resource.urn,
        );
      }
    }
  },
});

/** True when the value, or any string inside it, contains the secret. */
function contains(value: unknown, secret: string): boolean {
  if (typeof value === "string") return value.includes(secret);
  if (Array.isArray(value)) return value.some((inner) => contains(inner, secret));
  if (typeof value === "object" && value !== null) return Object.values(value).some((inner) => contains(inner, secret));
  return false;
}

export const rules = resourceRules(clusterAgentToken, {
  covers: [],
  policies: [clusterAgentTokenLimit, clusterAgentTokenRotation, clusterAgentTokenDescription, clusterAgentTokenNotInStackOutputs],
});
