/**
 * The acme platform team's forge, declared as code.
 *
 * Connection: FORGE_BASE_URL and FORGE_TOKEN in the environment (or stack config
 * `forge:baseUrl` and `pulumi config set --secret forge:token ...`). Writing broadcast messages
 * needs an administrator's token.
 *
 * Ids that differ between forge instances come from stack config; the defaults are the ids of
 * the emulator's seed (see docs/emulator.md).
 */
import * as pulumi from "@pulumi/pulumi";
import * as forge from "pulumi-forge";
import { groupSettings } from "./group";

export * from "./integrations";

const config = new pulumi.Config();

/** The team's group and the project that deploys to the clusters. */
const group = config.get("group") ?? "acme";
const deployerProject = config.get("deployerProject") ?? "acme/platform/deployer";
/** An Owner who approves production deployments (seed: olivia, id 2). */
const ownerUserId = config.getNumber("ownerUserId") ?? 2;
/** A project whose CI/CD jobs may call the deployer (seed: acme/api, id 2). */
const callerProjectId = config.getNumber("callerProjectId") ?? 2;
/** A group whose projects' CI/CD jobs may call the deployer (seed: acme/platform, id 2). */
const callerGroupId = config.getNumber("callerGroupId") ?? 2;
/** A contractor who reviews the deployer's changes (seed: nomad, a user in no group). */
const reviewer = config.get("reviewer") ?? "nomad";
/** The next maintenance window (UTC). Fixed values, so that a second `pulumi up` changes nothing. */
const maintenanceStartsAt = config.get("maintenanceStartsAt") ?? "2030-03-02T22:00:00Z";
const maintenanceEndsAt = config.get("maintenanceEndsAt") ?? "2030-03-03T02:00:00Z";
/** Where the forge reaches the production cluster's agent (a receptive agent: the cluster cannot dial out). */
const agentUrl = config.get("agentUrl") ?? "grpcs://agent.production.example.com:443";

// --- The group's settings and avatar (group.ts).
const team = groupSettings(group);

// --- Label taxonomy of the group: scoped labels (`scope::value`) are mutually exclusive per scope.
const labelSpecs: { name: string; color: string; description: string }[] = [
  { name: "type::bug", color: "#D9534F", description: "Something does not work as documented" },
  { name: "type::feature", color: "#428BCA", description: "New behaviour" },
  { name: "type::maintenance", color: "#7F8C8D", description: "Upgrades, refactoring, clean-up" },
  { name: "priority::high", color: "crimson", description: "Next in line" }, // a CSS colour name: the forge stores #DC143C
  { name: "priority::low", color: "#F0AD4E", description: "When there is time" },
];
const labels = labelSpecs.map(
  (spec) =>
    new forge.GroupLabel(spec.name.replace("::", "-"), { group, name: spec.name, color: spec.color, description: spec.description }),
);

// --- The maintenance banner, for the people who deploy.
const banner = new forge.BroadcastMessage("maintenance-banner", {
  message: "Planned maintenance of the deployment clusters: deployments are paused during the window.",
  startsAt: maintenanceStartsAt,
  endsAt: maintenanceEndsAt,
  broadcastType: "banner",
  theme: "light-indigo",
  dismissable: true,
  targetAccessLevels: [30, 40], // Developers and Maintainers
  targetPath: "/acme/*",
});

// --- The production cluster's agent, two tokens (rotate one while the other serves), and the
//     URL the forge uses to reach it (JWT: the forge generates the key pair).
const agent = new forge.ClusterAgent("production-agent", { project: deployerProject, name: "production" });
const tokenArgs = (name: string, description: string) => ({ project: deployerProject, agentId: agent.agentId, name, description });
// An agent holds at most two tokens: replacing one must revoke the old token first.
const primaryToken = new forge.ClusterAgentToken("production-agent-primary", tokenArgs("primary", "Used by the production cluster"), {
  deleteBeforeReplace: true,
});
const standbyToken = new forge.ClusterAgentToken("production-agent-standby", tokenArgs("standby", "Kept for rotation"), {
  deleteBeforeReplace: true,
});
const agentUrlConfiguration = new forge.ClusterAgentUrlConfiguration("production-agent-url", {
  project: deployerProject,
  agentId: agent.agentId,
  url: agentUrl,
});

// --- Who may deploy, and who approves.
const production = new forge.ProjectProtectedEnvironment("deployer-production", {
  project: deployerProject,
  name: "production",
  deployAccessLevels: [{ accessLevel: 40 }], // Maintainers
  approvalRules: [
    { userId: ownerUserId, requiredApprovals: 1 }, // the Owner signs off...
    { accessLevel: 40, requiredApprovals: 2 }, // ...and two Maintainers
  ],
});
const staging = new forge.ProjectProtectedEnvironment("deployer-staging", {
  project: deployerProject,
  name: "staging",
  deployAccessLevels: [{ accessLevel: 30 }], // Developers and Maintainers
});
const groupProduction = new forge.GroupProtectedEnvironment("acme-production-tier", {
  group,
  name: "production",
  deployAccessLevels: [{ accessLevel: 40 }],
  approvalRules: [{ userId: ownerUserId, requiredApprovals: 1 }],
});

// --- Only allowlisted CI/CD job tokens may reach the deployer.
const jobTokenScope = new forge.JobTokenScope("deployer-job-token-scope", { project: deployerProject, enabled: true });
const callerProject = new forge.JobTokenScopeProjectAllowlistEntry(
  "deployer-allows-project",
  { project: deployerProject, targetProjectId: callerProjectId },
  { dependsOn: [jobTokenScope] },
);
const callerGroup = new forge.JobTokenScopeGroupAllowlistEntry(
  "deployer-allows-group",
  { project: deployerProject, targetGroupId: callerGroupId },
  { dependsOn: [jobTokenScope] },
);

// --- Who works on the deployer besides the group's members: a direct role, ending by itself
// (the policy pack asks for an expiry from Maintainer up; a date keeps a second `up` unchanged).
const reviewerMembership = new forge.ProjectMember("deployer-reviewer", {
  project: deployerProject,
  user: reviewer,
  accessLevel: 20,
  expiresAt: config.get("reviewerUntil") ?? "2030-12-31",
});
// Everyone with access, each at their highest level through the project and its groups (read
// once the membership exists, so that the reviewer is among them).
const deployerAccess = reviewerMembership.userId.apply(() => forge.listProjectMembers({ project: deployerProject, all: true }));

// --- Outputs.
export const groupWebUrl = team.settings.webUrl;
export const groupAvatarUrl = team.avatar.avatarUrl;
export const labelIds = pulumi
  .all(labels.map((label) => pulumi.all([label.name, label.labelId])))
  .apply((pairs) => Object.fromEntries(pairs));
export const maintenanceBannerId = banner.messageId;
export const maintenanceBannerActive = banner.active;
export const agentId = agent.agentId;
/** Secrets: shown masked; `pulumi stack output --show-secrets agentTokens` reveals them. */
export const agentTokens = pulumi.secret({ primary: primaryToken.token, standby: standbyToken.token });
export const agentPublicKey = agentUrlConfiguration.publicKey;
export const protectedEnvironments = [
  production.name,
  staging.name,
  pulumi.interpolate`${groupProduction.group} tier ${groupProduction.name}`,
];
export const jobTokenAllowlist = {
  enabled: jobTokenScope.inboundEnabled,
  projects: [callerProject.targetPathWithNamespace],
  groups: [callerGroup.targetName],
};
export const reviewerMembershipState = reviewerMembership.membershipState;
export const deployerAccessLevels = deployerAccess.apply((members) =>
  Object.fromEntries(members.map((member) => [String(member["username"]), member["accessLevel"]])),
);
