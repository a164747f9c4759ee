import { collectionRoutes } from "../../core/routes";
import type { ClusterAgents } from "./model";

const AGENTS = "/projects/:project/cluster_agents";

/** Cluster agent registrations: list, read, register, delete (with the agent's tokens and URL configuration). */
export const clusterAgentRoutes = collectionRoutes<ClusterAgents, typeof AGENTS>(AGENTS, "agentId", "paged");
