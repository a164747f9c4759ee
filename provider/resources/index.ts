import type { AnyDeclaration } from "../engine/declaration";
import { broadcastMessage } from "./broadcast-message";
import { clusterAgent } from "./cluster-agent";
import { clusterAgentToken } from "./cluster-agent-token";
import { clusterAgentUrlConfiguration } from "./cluster-agent-url-configuration";
import { errorTrackingClientKey } from "./error-tracking-client-key";
import { errorTrackingSettings } from "./error-tracking-settings";
import { feature } from "./feature";
import { featureFlagUserList } from "./feature-flag-user-list";
import { groupAvatar } from "./group-avatar";
import { groupIntegrations } from "./group-integrations";
import { geoSite } from "./geo-site";
import { groupLabel } from "./group-label";
import { groupLabelSubscription } from "./group-label-subscription";
import { groupSettings } from "./group-settings";
import { instanceCluster } from "./instance-cluster";
import { jobTokenScope } from "./job-token-scope";
import { jobTokenScopeGroupAllowlistEntry, jobTokenScopeProjectAllowlistEntry } from "./job-token-scope-allowlist";
import { projectMember } from "./project-member";
import { groupProtectedEnvironment, projectProtectedEnvironment } from "./protected-environment";
import { snippet } from "./snippet";
import { virtualRegistryCleanupPolicy } from "./virtual-registry-cleanup-policy";
import { repositoryStorageMove } from "./repository-storage-move";

/** Every resource declaration of the library. The contract tests and the policy pack iterate it. */
export const declarations = {
  groupLabel,
  groupLabelSubscription,
  broadcastMessage,
  clusterAgent,
  clusterAgentToken,
  clusterAgentUrlConfiguration,
  jobTokenScope,
  jobTokenScopeProjectAllowlistEntry,
  jobTokenScopeGroupAllowlistEntry,
  projectProtectedEnvironment,
  groupProtectedEnvironment,
  featureFlagUserList,
  virtualRegistryCleanupPolicy,
  errorTrackingSettings,
  errorTrackingClientKey,
  repositoryStorageMove,
  instanceCluster,
  feature,
  groupSettings,
  groupAvatar,
  ...groupIntegrations,
  projectMember,
  snippet,
  geoSite,
} satisfies Record<string, AnyDeclaration>;

const byName = new Map<string, AnyDeclaration>(Object.values(declarations).map((declaration) => [declaration.name, declaration]));

/** The declaration of a type name (`GroupLabel`). */
export function declarationByName(name: string): AnyDeclaration {
  const declaration = byName.get(name);
  if (!declaration) throw new Error(`pulumi-forge: no resource named ${name}`);
  return declaration;
}
