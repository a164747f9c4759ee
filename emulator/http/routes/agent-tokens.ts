import { paginate } from "../pagination";
import type { RouteDefinition } from "../types";
import { created, noContent, ok, pathParam } from "../types";

const TOKENS = "/projects/:id/cluster_agents/:agent_id/tokens";

/** Agent tokens: list (active only), read, create (secret once), revoke. */
export const agentTokenRoutes: RouteDefinition[] = [
  {
    method: "GET",
    path: TOKENS,
    handler: (r, store) => paginate(r, store.agentTokens.list(r.actor, pathParam(r, "id"), pathParam(r, "agent_id"))),
  },
  {
    method: "GET",
    path: `${TOKENS}/:token_id`,
    handler: (r, store) =>
      ok(store.agentTokens.get(r.actor, pathParam(r, "id"), pathParam(r, "agent_id"), pathParam(r, "token_id"))),
  },
  {
    method: "POST",
    path: TOKENS,
    handler: (r, store) =>
      created(store.agentTokens.create(r.actor, pathParam(r, "id"), pathParam(r, "agent_id"), r.params)),
  },
  {
    method: "DELETE",
    path: `${TOKENS}/:token_id`,
    handler: (r, store) => {
      store.agentTokens.revoke(r.actor, pathParam(r, "id"), pathParam(r, "agent_id"), pathParam(r, "token_id"));
      return noContent();
    },
  },
];
