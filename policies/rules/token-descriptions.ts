/**
 * Agent tokens say what they are for: the forge shows a token's description, and it is what
 * tells whoever finds the token whether it can be revoked.
 */
import { clusterAgentToken } from "../../provider/resources/cluster-agent-token";
import { resourcePolicy } from "../lib/define";
import { isKnown, show } from "../lib/values";

export const clusterAgentTokenDescription = resourcePolicy<{ minLength: number }>({
  name: "cluster-agent-token-description",
  description:
    "An agent token has a description saying what it is for, so that whoever finds it in the forge knows whether it can be revoked.",
  enforcementLevel: "advisory",
  resources: [clusterAgentToken],
  config: {
    minLength: {
      type: "integer",
      minimum: 1,
      default: 1,
      description: "The shortest description accepted (characters, surrounding spaces ignored).",
    },
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
