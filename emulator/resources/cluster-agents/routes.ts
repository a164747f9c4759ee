import { created, noContent, ok, paged, routesOf } from "../../core/routes";
import type { ClusterAgents } from "./model";

const route = routesOf<ClusterAgents>();
const AGENTS = "/projects/:project/cluster_agents";
const AGENT = "/projects/:project/cluster_agents/:agentId";

/** Cluster agent registrations. */
export const clusterAgentRoutes = [
  route("GET", AGENTS, (r, agents) => paged(agents.list(r.actor, r.params.project))),
  route("GET", AGENT, (r, agents) => ok(agents.get(r.actor, r.params.project, r.params.agentId))),
  route("POST", AGENTS, (r, agents) => created(agents.create(r.actor, r.params.project, r.input))),
  route("DELETE", AGENT, (r, agents) => {
    agents.delete(r.actor, r.params.project, r.params.agentId);
    return noContent();
  }),
];
