// Breaks only rules that no input schema can see (so the provider's check passes and every
// policy runs): mandatory limits that span resources, and advisory good practice. See schema/
// for inputs the schemas refuse.
import * as forge from "pulumi-forge";

// Two URL configurations and three tokens for one agent (its id is unknown at preview).
const edge = new forge.ClusterAgent("edge", { project: "acme/web", name: "edge" });
new forge.ClusterAgentUrlConfiguration("edge-url", { project: "acme/web", agentId: edge.agentId, url: "grpcs://agent.example.com:443" });
new forge.ClusterAgentUrlConfiguration("edge-url-2", { project: "acme/web", agentId: edge.agentId, url: "grpcs://agent2.example.com:443" });
for (const name of ["edge-a", "edge-b", "edge-c"]) {
  new forge.ClusterAgentToken(name, { project: "acme/web", agentId: edge.agentId, name, description: "CI deployer for acme/web" });
}

const core = new forge.ClusterAgent("core", { project: "acme/api", name: "core" });

// Two tokens without deleteBeforeReplace, one without a description.
new forge.ClusterAgentToken("core-a", { project: "acme/api", agentId: core.agentId, name: "core-a" });
new forge.ClusterAgentToken("core-b", { project: "acme/api", agentId: core.agentId, name: "core-b", description: "Backup deployer" });

// A token, an internal address and a ticket id (pattern from the test's --policy-pack-config) in a public message.
new forge.BroadcastMessage("leak", {
  message: "Runners moved to 10.20.30.40; use glpat-xK9d8Fj3LmNqR2sT5vWy until SEC-4711 is closed.",
});

// Production without approvals, at project and group level.
new forge.ProjectProtectedEnvironment("web-production", {
  project: "acme/web",
  name: "production",
  deployAccessLevels: [{ accessLevel: 40 }],
});
new forge.GroupProtectedEnvironment("acme-production", { group: "acme", name: "production", deployAccessLevels: [{ groupId: 2 }] });
