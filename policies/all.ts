/**
 * Every policy of the pack, importable without starting the analyzer server (index.ts does
 * that). `forge-input-schema` covers every declaration's schema by itself; the others are the
 * hand-written rules a schema cannot hold, grouped in `rules/` by what they check.
 */
import { inputSchema } from "./input-schema";
import type { ForgePolicy } from "./lib/define";
import { instanceClusterDeprecated } from "./rules/deprecations";
import { clusterAgentTokenLimit, clusterAgentTokenRotation, clusterAgentUrlConfigurationOnePerAgent } from "./rules/agent-limits";
import { virtualRegistryCleanupPolicyOnePerGroup } from "./rules/cleanup-policies";
import { groupProtectedEnvironmentProductionApproval, projectProtectedEnvironmentProductionApproval } from "./rules/production-approvals";
import { oneResourcePerObject } from "./rules/uniqueness";
import { geoSiteOnePrimary } from "./rules/geo-sites";
import { projectMemberExpiry } from "./rules/memberships";
import { broadcastMessageNoConfidentialContent, clusterAgentTokenNotInStackOutputs, snippetNoConfidentialContent } from "./rules/secrets";
import { clusterAgentTokenDescription } from "./rules/token-descriptions";

export const policies: ForgePolicy[] = [
  inputSchema,
  clusterAgentUrlConfigurationOnePerAgent,
  clusterAgentTokenLimit,
  clusterAgentTokenRotation,
  broadcastMessageNoConfidentialContent,
  clusterAgentTokenNotInStackOutputs,
  clusterAgentTokenDescription,
  projectProtectedEnvironmentProductionApproval,
  groupProtectedEnvironmentProductionApproval,
  virtualRegistryCleanupPolicyOnePerGroup,
  instanceClusterDeprecated,
  oneResourcePerObject,
  snippetNoConfidentialContent,
  projectMemberExpiry,
  geoSiteOnePrimary,
];
