import { created, noContent, ok, paged, routesOf } from "../../core/routes";
import type { AgentTokens } from "./model";

const route = routesOf<AgentTokens>();
const TOKENS = "/projects/:project/cluster_agents/:agentId/tokens";
const TOKEN = "/projects/:project/cluster_agents/:agentId/tokens/:tokenId";

/** Agent tokens: list (active only), read, create (secret once), revoke. */
export const agentTokenRoutes = [
  route("GET", TOKENS, (r, tokens) => paged(tokens.list(r.actor, r.params.project, r.params.agentId))),
  route("GET", TOKEN, (r, tokens) => ok(tokens.get(r.actor, r.params.project, r.params.agentId, r.params.tokenId))),
  route("POST", TOKENS, (r, tokens) => created(tokens.create(r.actor, r.params.project, r.params.agentId, r.input))),
  route("DELETE", TOKEN, (r, tokens) => {
    tokens.revoke(r.actor, r.params.project, r.params.agentId, r.params.tokenId);
    return noContent();
  }),
];
