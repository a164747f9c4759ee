/**
 * Every policy of the pack, importable without starting the analyzer server (index.ts does
 * that). One file per resource in `rules/`, named after it, plus the generic schema policy.
 */
import { inputSchemaPolicy } from "./input-schema";
import type { ForgePolicy, ResourceRules } from "./lib/define";
import { rules as broadcastMessage } from "./rules/broadcast-message";
import { rules as clusterAgentToken } from "./rules/cluster-agent-token";
import { rules as clusterAgentUrlConfiguration } from "./rules/cluster-agent-url-configuration";
import { rules as groupLabel } from "./rules/group-label";
import { rules as groupProtectedEnvironment } from "./rules/group-protected-environment";
import { rules as projectProtectedEnvironment } from "./rules/project-protected-environment";

/** The per-resource rule files. */
export const resourceRules: ResourceRules[] = [
  broadcastMessage,
  clusterAgentToken,
  clusterAgentUrlConfiguration,
  groupLabel,
  groupProtectedEnvironment,
  projectProtectedEnvironment,
];

export const policies: ForgePolicy[] = [inputSchemaPolicy(resourceRules), ...resourceRules.flatMap((file) => file.policies)];
