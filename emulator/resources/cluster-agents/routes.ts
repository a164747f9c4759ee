import { routes } from "../../../api/routes";
import { collectionRoutes } from "../../core/routes";
import type { ClusterAgents } from "./model";

/** Cluster agent registrations: list, read, register, delete (with the agent's tokens and URL configuration). */
export const clusterAgentRoutes = collectionRoutes<ClusterAgents, typeof routes.clusterAgents.list.path>(routes.clusterAgents, "paged");
