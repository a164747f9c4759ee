// Follows every rule of the policy pack: the preview passes with no violation, not even advisory.
import * as forge from "pulumi-forge";

const agent = new forge.ClusterAgent("edge", { project: "acme/web", name: "edge" });
new forge.ClusterAgentToken("edge-ci", {
  project: "acme/web",
  agentId: agent.agentId,
  name: "ci",
  description: "CI deployer for acme/web",
});
new forge.ClusterAgentUrlConfiguration("edge-url", { project: "acme/web", agentId: agent.agentId, url: "grpcs://agent.example.com:443" });

new forge.GroupLabel("bug", { group: "acme", name: "bug", color: "#D9534F" });
new forge.GroupLabel("docs", { group: "acme", name: "docs", color: "steelblue" });

new forge.BroadcastMessage("maintenance", {
  message: "Maintenance on Saturday 10:00-12:00 UTC; see https://status.example.com for details.",
  broadcastType: "banner",
  theme: "light-indigo",
  targetAccessLevels: [30, 40],
  startsAt: "2030-06-01T10:00:00Z",
  endsAt: "2030-06-01T12:00:00Z",
});

new forge.ProjectProtectedEnvironment("web-production", {
  project: "acme/web",
  name: "production",
  deployAccessLevels: [{ accessLevel: 40 }, { groupId: 2, groupInheritanceType: 1 }],
  approvalRules: [{ accessLevel: 40, requiredApprovals: 1 }],
});
new forge.GroupProtectedEnvironment("acme-production", {
  group: "acme",
  name: "production",
  deployAccessLevels: [{ accessLevel: 40 }],
  requiredApprovalCount: 1,
});
new forge.GroupProtectedEnvironment("acme-staging", { group: "acme", name: "staging", deployAccessLevels: [{ accessLevel: 30 }] });

export const agentName = agent.name;
