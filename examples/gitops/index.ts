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
const token = new forge.ClusterAgentToken("gitops-token", {
  project,
  agentId: agent.agentId,
  name: "gitops",
  description: "Agent token managed by the GitOps pipeline",
});

/** Secret: encrypted in state with the CI's passphrase, masked in every log. */
export const agentToken = token.token;
