/**
 * Every policy of the pack, importable without starting the analyzer server (index.ts does
 * that). `forge-input-schema` covers every declaration's schema by itself; the others are the
 * hand-written rules a schema cannot hold, grouped in `rules/` by what they check.
 */
import { inputSchema } from "./input-schema";
import type { ForgePolicy } from "./lib/define";
import { groupSettingsDeprecatedInputs, instanceClusterDeprecated } from "./rules/deprecations";
import { clusterAgentTokenLimit, clusterAgentTokenRotation, clusterAgentUrlConfigurationOnePerAgent } from "./rules/agent-limits";
import { virtualRegistryCleanupPolicyOnePerGroup } from "./rules/cleanup-policies";
import { groupProtectedEnvironmentProductionApproval, projectProtectedEnvironmentProductionApproval } from "./rules/production-approvals";
import { groupIntegrationHttps, groupIntegrationSslVerification } from "./rules/integrations";
import { oneResourcePerObject } from "./rules/uniqueness";
import { geoSiteOnePrimary } from "./rules/geo-sites";
import { projectMemberExpiry } from "./rules/memberships";
import { broadcastMessageNoConfidentialContent, clusterAgentTokenNotInStackOutputs, snippetNoConfidentialContent } from "./rules/secrets";
import { clusterAgentTokenDescription } from "./rules/token-descriptions";
import { groupSettingsPublicVisibility, groupSettingsTopLevelOnly, groupSettingsTwoFactor } from "./rules/group-settings";

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
  groupSettingsTopLevelOnly,
  groupSettingsTwoFactor,
  groupSettingsPublicVisibility,
  groupSettingsDeprecatedInputs,
  groupIntegrationHttps,
  groupIntegrationSslVerification,
  snippetNoConfidentialContent,
  projectMemberExpiry,
  geoSiteOnePrimary,
];
