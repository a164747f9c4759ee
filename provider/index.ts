/**
 * pulumi-forge: a forge's configuration as Pulumi resources.
 *
 * Connection: `FORGE_BASE_URL` and `FORGE_TOKEN` in the environment, or stack config
 * `forge:baseUrl` and `forge:token` (`pulumi config set --secret forge:token ...`). The token is
 * read at run time and never stored in state.
 *
 * Every resource's Pulumi id is also its import id (the `import` resource option).
 */
import { resourceClass } from "./engine/resource-class";
import { declarations as d } from "./resources";

/** A label of a group. Import id: `<group>:<labelId>`. */
export const GroupLabel = resourceClass(d.groupLabel);
export type GroupLabel = InstanceType<typeof GroupLabel>;

/** The token user's subscription to a group label. Import id: `<group>:<labelId>`. */
export const GroupLabelSubscription = resourceClass(d.groupLabelSubscription);
export type GroupLabelSubscription = InstanceType<typeof GroupLabelSubscription>;

/** A banner or notification for the users of the instance (administrator). Import id: `<messageId>`. */
export const BroadcastMessage = resourceClass(d.broadcastMessage);
export type BroadcastMessage = InstanceType<typeof BroadcastMessage>;

/** A cluster agent registered in a project. Import id: `<project>:<agentId>`. */
export const ClusterAgent = resourceClass(d.clusterAgent);
export type ClusterAgent = InstanceType<typeof ClusterAgent>;

/** A token of a cluster agent; `token` is a secret output. Import id: `<project>:<agentId>:<tokenId>`. */
export const ClusterAgentToken = resourceClass(d.clusterAgentToken);
export type ClusterAgentToken = InstanceType<typeof ClusterAgentToken>;

/** How the forge connects to a receptive agent. Import id: `<project>:<agentId>:<urlConfigurationId>`. */
export const ClusterAgentUrlConfiguration = resourceClass(d.clusterAgentUrlConfiguration);
export type ClusterAgentUrlConfiguration = InstanceType<typeof ClusterAgentUrlConfiguration>;

/** The CI/CD job token allowlist switch of a project. Import id: `<project>`. */
export const JobTokenScope = resourceClass(d.jobTokenScope);
export type JobTokenScope = InstanceType<typeof JobTokenScope>;

/** A project on a project's job token allowlist. Import id: `<project>:<targetProjectId>`. */
export const JobTokenScopeProjectAllowlistEntry = resourceClass(d.jobTokenScopeProjectAllowlistEntry);
export type JobTokenScopeProjectAllowlistEntry = InstanceType<typeof JobTokenScopeProjectAllowlistEntry>;

/** A group on a project's job token allowlist. Import id: `<project>:<targetGroupId>`. */
export const JobTokenScopeGroupAllowlistEntry = resourceClass(d.jobTokenScopeGroupAllowlistEntry);
export type JobTokenScopeGroupAllowlistEntry = InstanceType<typeof JobTokenScopeGroupAllowlistEntry>;

/** A protected environment of a project. Import id: `<project>:<name>`. */
export const ProjectProtectedEnvironment = resourceClass(d.projectProtectedEnvironment);
export type ProjectProtectedEnvironment = InstanceType<typeof ProjectProtectedEnvironment>;

/** A protected deployment tier of a group. Import id: `<group>:<tier>`. */
export const GroupProtectedEnvironment = resourceClass(d.groupProtectedEnvironment);
export type GroupProtectedEnvironment = InstanceType<typeof GroupProtectedEnvironment>;

export { declarations } from "./resources";
export { typeToken } from "./engine/declaration";
export { ForgeApiError, ForgeConfigError } from "./client";
export * from "./lookups";
