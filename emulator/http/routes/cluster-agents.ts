import { paginate } from "../pagination";
import type { RouteDefinition } from "../types";
import { created, noContent, ok, pathParam } from "../types";

const AGENTS = "/projects/:id/cluster_agents";

/** Cluster agent registrations. */
export const clusterAgentRoutes: RouteDefinition[] = [
  { method: "GET", path: AGENTS, handler: (r, store) => paginate(r, store.clusterAgents.list(r.actor, pathParam(r, "id"))) },
  {
    method: "GET",
    path: `${AGENTS}/:agent_id`,
    handler: (r, store) => ok(store.clusterAgents.get(r.actor, pathParam(r, "id"), pathParam(r, "agent_id"))),
  },
  {
    method: "POST",
    path: AGENTS,
    handler: (r, store) => created(store.clusterAgents.create(r.actor, pathParam(r, "id"), r.params)),
  },
  {
    method: "DELETE",
    path: `${AGENTS}/:agent_id`,
    handler: (r, store) => {
      store.clusterAgents.delete(r.actor, pathParam(r, "id"), pathParam(r, "agent_id"));
      return noContent();
    },
  },
];
