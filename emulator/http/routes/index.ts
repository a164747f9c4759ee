import type { RouteDefinition } from "../types";
import { agentTokenRoutes } from "./agent-tokens";
import { broadcastMessageRoutes } from "./broadcast-messages";
import { clusterAgentRoutes } from "./cluster-agents";
import { groupRoutes } from "./groups";
import { jobTokenScopeRoutes } from "./job-token-scope";
import { labelRoutes } from "./labels";
import { projectRoutes } from "./projects";
import { groupProtectedEnvironmentRoutes, projectProtectedEnvironmentRoutes } from "./protected-environments";
import { urlConfigurationRoutes } from "./url-configurations";
import { userRoutes } from "./users";

/** Every API route the emulator serves (paths relative to /api/v4). */
export const allRoutes: readonly RouteDefinition[] = [
  ...userRoutes,
  ...groupRoutes,
  ...projectRoutes,
  ...labelRoutes,
  ...broadcastMessageRoutes,
  ...clusterAgentRoutes,
  ...agentTokenRoutes,
  ...urlConfigurationRoutes,
  ...jobTokenScopeRoutes,
  ...projectProtectedEnvironmentRoutes,
  ...groupProtectedEnvironmentRoutes,
];
