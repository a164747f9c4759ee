import { AGENTS_COLLECTION } from "../../core/agents";
import { defineResource } from "../../core/resource";
import { type ClusterAgentRecord, ClusterAgents } from "./model";
import { clusterAgentRoutes } from "./routes";

/** Cluster agent registrations of projects (tokens and URL configurations hang below them). */
export const clusterAgents = defineResource({
  name: "clusterAgents",
  collections: { [AGENTS_COLLECTION]: [] as ClusterAgentRecord[] },
  model: (core, collections) => new ClusterAgents(core, collections.clusterAgents),
  routes: clusterAgentRoutes,
});
