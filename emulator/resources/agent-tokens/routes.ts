import { collectionRoutes } from "../../core/routes";
import type { AgentTokens } from "./model";

const TOKENS = "/projects/:project/cluster_agents/:agentId/tokens";

/** Agent tokens: list (active only), read, create (secret once), revoke (`DELETE`). */
export const agentTokenRoutes = collectionRoutes<AgentTokens, typeof TOKENS>(TOKENS, "tokenId", "paged");
