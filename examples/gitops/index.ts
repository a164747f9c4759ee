// The forge configuration this pipeline keeps in place: merge requests preview it (with the
// policy pack), the default branch applies it, and a scheduled job reports drift.
import * as forge from "pulumi-forge";

const project = "acme/platform/deployer";

new forge.GroupLabel("needs-review", {
  group: "acme",
  name: "gitops::needs-review",
  color: "#D9534F",
  description: "Changed outside GitOps",
});

const agent = new forge.ClusterAgent("gitops", { project, name: "gitops" });
// Rotated by the pipeline's own runs: the first `up` 30 days after a token was made replaces the
// older of the two, so the agent switches to `currentToken` while `previousToken` still works.
const token = new forge.RotatingClusterAgentToken("gitops-token", {
  project,
  agentId: agent.agentId,
  name: "gitops",
  description: "Agent token managed by the GitOps pipeline",
  rotateAfter: "720h",
});

/** Secret: encrypted in state with the CI's passphrase, masked in every log. */
export const agentToken = token.currentToken;
