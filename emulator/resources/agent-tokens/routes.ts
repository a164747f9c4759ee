import { routes } from "../../../api/routes";
import { collectionRoutes } from "../../core/routes";
import type { AgentTokens } from "./model";

/** Agent tokens: list (active only), read, create (secret once), revoke (`DELETE`). */
export const agentTokenRoutes = collectionRoutes<AgentTokens, typeof routes.clusterAgentTokens.list.path>(
  routes.clusterAgentTokens,
  "paged",
);
