import { defineResource } from "../../core/resource";
import { type AgentTokenRecord, AgentTokens } from "./model";
import { agentTokenRoutes } from "./routes";

/** Tokens of cluster agents (removed with their agent). */
export const agentTokens = defineResource({
  name: "agentTokens",
  collections: { agentTokens: [] as AgentTokenRecord[] },
  model: (core, collections) => new AgentTokens(core, core.agents.children(collections.agentTokens, "token_id")),
  routes: agentTokenRoutes,
});
