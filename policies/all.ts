/**
 * Every policy of the pack, importable without starting the analyzer server (index.ts does
 * that). `forge-input-schema` covers every declaration's schema by itself; the others are the
 * hand-written rules a schema cannot hold, grouped in `rules/` by what they check.
 */
import { inputSchema } from "./input-schema";
import type { ForgePolicy } from "./lib/define";
import { deprecatedEndpointsPolicy, groupSettingsDeprecatedInputs } from "./rules/deprecations";
import { clusterAgentTokenRotation } from "./rules/agent-limits";
import { limitPolicies } from "./rules/limits";
import { groupProtectedEnvironmentProductionApproval, projectProtectedEnvironmentProductionApproval } from "./rules/production-approvals";
import { groupIntegrationHttps, groupIntegrationSslVerification } from "./rules/integrations";
import { oneResourcePerObject } from "./rules/uniqueness";
import { projectMemberExpiry } from "./rules/memberships";
import { broadcastMessageNoConfidentialContent, clusterAgentTokenNotInStackOutputs, snippetNoConfidentialContent } from "./rules/secrets";
import { clusterAgentTokenDescription } from "./rules/token-descriptions";
import { credentialMaxAge } from "./rules/credential-age";
import { groupSettingsPublicVisibility, groupSettingsTopLevelOnly, groupSettingsTwoFactor } from "./rules/group-settings";

export const policies: ForgePolicy[] = [
  inputSchema,
  ...limitPolicies,
  clusterAgentTokenRotation,
  broadcastMessageNoConfidentialContent,
  clusterAgentTokenNotInStackOutputs,
  clusterAgentTokenDescription,
  credentialMaxAge,
  projectProtectedEnvironmentProductionApproval,
  groupProtectedEnvironmentProductionApproval,
  deprecatedEndpointsPolicy,
  oneResourcePerObject,
  groupSettingsTopLevelOnly,
  groupSettingsTwoFactor,
  groupSettingsPublicVisibility,
  groupSettingsDeprecatedInputs,
  groupIntegrationHttps,
  groupIntegrationSslVerification,
  snippetNoConfidentialContent,
  projectMemberExpiry,
];
