import { z } from "zod";
import { projectRef, serverId } from "../fields";
import { defineLookup } from "./lookup";
import { routes } from "../../api/routes";

export const clusterAgentLookups = [
  defineLookup({
    name: "listClusterAgents",
    summary: "The cluster agents registered in a project.",
    route: routes.clusterAgents.list,
    args: z.object({
      /** The project: its id or full path. */
      project: projectRef,
    }),
    many: true,
  }),
  defineLookup({
    name: "listClusterAgentTokens",
    summary: "The active tokens of a cluster agent, without their secret values.",
    route: routes.clusterAgentTokens.list,
    args: z.object({
      /** The project: its id or full path. */
      project: projectRef,
      /** The agent's id. */
      agentId: serverId,
    }),
    many: true,
  }),
  defineLookup({
    name: "listClusterAgentUrlConfigurations",
    summary: "The URL configuration of a receptive cluster agent (at most one), without its client key.",
    route: routes.clusterAgentUrlConfigurations.list,
    args: z.object({
      /** The project: its id or full path. */
      project: projectRef,
      /** The agent's id. */
      agentId: serverId,
    }),
    many: true,
    // ClusterAgentUrlConfiguration keeps its client certificate secret.
    secretFields: ["clientCert"],
  }),
] as const;
