/**
 * The end-to-end stack: every pulumi-forge resource once (two agents, so that both URL
 * configuration kinds exist; two tokens). Stack config varies the inputs, so that a test can
 * change them with `stack.setConfig`; the defaults fit the emulator's seed.
 *
 * `importIds` (an object: logical name -> import id) adopts existing objects with the `import`
 * resource option.
 */
import * as pulumi from "@pulumi/pulumi";
import * as forge from "pulumi-forge";

const config = new pulumi.Config();
const importIds = config.getObject<Record<string, string>>("importIds") ?? {};

/** Resource options of one resource, with `import` when the stack config asks for it. */
function opts(name: string, extra: pulumi.CustomResourceOptions = {}): pulumi.CustomResourceOptions {
  const importId = importIds[name];
  return importId === undefined ? extra : { ...extra, import: importId };
}

const agentProject = "acme/platform/deployer";
const labelGroup = config.get("labelGroup") ?? "acme";
const groupEnvTier = (config.get("groupEnvTier") ?? "production") as "production" | "staging";

// Moved to a subgroup, the label is deleted before it is recreated (the declaration says so:
// the forge counts the ancestors' labels as taken).
const label = new forge.GroupLabel(
  "label",
  { group: labelGroup, name: config.get("labelName") ?? "e2e::bug", color: config.get("labelColor") ?? "red", description: "end-to-end" },
  opts("label"),
);
const subscription = new forge.GroupLabelSubscription("subscription", { group: labelGroup, labelId: label.labelId }, opts("subscription"));

const message = new forge.BroadcastMessage(
  "message",
  {
    message: config.get("messageText") ?? "e2e maintenance window",
    startsAt: "2031-01-01T00:00:00Z",
    endsAt: "2031-01-01T04:00:00Z",
    targetAccessLevels: [30, 40],
    broadcastType: "banner",
    theme: "light-indigo",
  },
  opts("message"),
);

const jwtAgent = new forge.ClusterAgent("jwt-agent", { project: agentProject, name: config.get("jwtAgentName") ?? "e2e-jwt" }, opts("jwt-agent"));
const mtlsAgent = new forge.ClusterAgent("mtls-agent", { project: agentProject, name: config.get("mtlsAgentName") ?? "e2e-mtls" }, opts("mtls-agent"));

// Two tokens is the agent's limit: a replacement must revoke the old token first.
const tokenNames = [config.get("token1Name") ?? "e2e-one", config.get("token2Name") ?? "e2e-two"];
if (config.getBoolean("extraToken")) tokenNames.push("e2e-three"); // one too many: the forge refuses it
const tokens = tokenNames.map(
  (name, index) =>
    new forge.ClusterAgentToken(
      `token-${index + 1}`,
      { project: agentProject, agentId: jwtAgent.agentId, name, description: `e2e token ${index + 1}` },
      opts(`token-${index + 1}`, { deleteBeforeReplace: true }),
    ),
);

const jwtUrl = new forge.ClusterAgentUrlConfiguration(
  "jwt-url",
  { project: agentProject, agentId: jwtAgent.agentId, url: config.get("jwtUrl") ?? "grpcs://jwt.e2e.example.com:443" },
  opts("jwt-url"),
);
// The client key is read as a plain value on purpose: the library must keep it out of the state anyway.
const mtlsUrl = new forge.ClusterAgentUrlConfiguration(
  "mtls-url",
  {
    project: agentProject,
    agentId: mtlsAgent.agentId,
    url: "grpcs://mtls.e2e.example.com:443",
    clientCert: config.require("clientCert"),
    clientKey: config.require("clientKey"),
    tlsHost: "mtls.e2e.example.com",
  },
  opts("mtls-url"),
);

const scope = new forge.JobTokenScope("scope", { project: config.get("scopeProject") ?? "acme/api", enabled: true }, opts("scope"));
const allowProject = new forge.JobTokenScopeProjectAllowlistEntry(
  "allow-project",
  { project: "acme/api", targetProjectId: config.getNumber("allowProjectId") ?? 1 },
  opts("allow-project"),
);
const allowGroup = new forge.JobTokenScopeGroupAllowlistEntry(
  "allow-group",
  { project: "acme/api", targetGroupId: config.getNumber("allowGroupId") ?? 2 },
  opts("allow-group"),
);

const projectEnv = new forge.ProjectProtectedEnvironment(
  "project-env",
  {
    project: "acme/web",
    name: config.get("projectEnvName") ?? "e2e-production",
    deployAccessLevels: [{ accessLevel: 40 }],
    approvalRules: [{ userId: 2, requiredApprovals: 1 }],
  },
  opts("project-env"),
);
const groupEnv = new forge.GroupProtectedEnvironment(
  "group-env",
  { group: "acme", name: groupEnvTier, deployAccessLevels: [{ accessLevel: 40 }], requiredApprovalCount: 1 },
  opts("group-env"),
);

export const ids = {
  label: label.id,
  subscription: subscription.id,
  message: message.id,
  jwtAgent: jwtAgent.id,
  mtlsAgent: mtlsAgent.id,
  tokens: tokens.map((token) => token.id),
  jwtUrl: jwtUrl.id,
  mtlsUrl: mtlsUrl.id,
  scope: scope.id,
  allowProject: allowProject.id,
  allowGroup: allowGroup.id,
  projectEnv: projectEnv.id,
  groupEnv: groupEnv.id,
};
export const labelId = label.labelId;
export const jwtAgentId = jwtAgent.agentId;
export const mtlsAgentId = mtlsAgent.agentId;
export const jwtUrlConfigurationId = jwtUrl.urlConfigurationId;
export const jwtPublicKey = jwtUrl.publicKey;
/** Secret outputs: the agent tokens' values. */
export const tokenValues = tokens.map((token) => token.token);
