import { z } from "zod";
import { AGENT_NAME, AGENT_NAME_MAX } from "../../api";
import { defineResource } from "../engine/declaration";
import { normalizers, projectRef, serverId, show } from "../fields";
import { defineAdopt, type AdoptEntries } from "../adopt-entry/entry";
import { list, text } from "../adopt-entry/find";
import { routes } from "../../api/routes";

/** A cluster agent registered in a project (the project holds its configuration). */
export const clusterAgent = defineResource({
  name: "ClusterAgent",
  summary: "Registers a cluster agent in a project.",
  inputs: z.object({
    /** The agent's configuration project: id or full path. */
    project: projectRef,
    /** Lower-case letters, digits and `-`, not starting or ending with `-`, at most 63 characters. Unique in the project. */
    name: z
      .string()
      .max(AGENT_NAME_MAX)
      .regex(AGENT_NAME, {
        error: (issue) =>
          `${show(issue.input)} is not a valid agent name. Use lower-case letters, digits and '-', not starting or ending with '-', such as "edge-1".`,
      }),
  }),
  outputs: z.object({
    /** The agent's id. */
    agentId: serverId,
    /** When it was registered. */
    createdAt: z.string(),
    /** The user who registered it. */
    createdByUserId: z.number().int(),
  }),
  recordId: "agentId",
  idParts: ["project", "agentId"],
  create: routes.clusterAgents.create,
  read: routes.clusterAgents.get,
  delete: routes.clusterAgents.delete,
  // Names are unique in a project: one there before the create is refused by name, and after a
  // lost answer the forge refuses a second one (the one found is named, never adopted).
  identity: {
    fields: ["project", "name"],
    describe: (state) => `the cluster agent ${show(state["name"])} of project ${show(state["project"])}`,
    find: { list: routes.clusterAgents.list },
  },
  // The API has no update: any change registers a new agent.
  replaceOn: "all",
  normalize: { project: normalizers.ref },
  notes: ["Deleting the agent also revokes its tokens and removes its URL configuration."],
});

/** What forge-adopt finds of this file's resources (provider/adopt): where their objects are, what to call them. */
export const adopt: AdoptEntries = {
  clusterAgent: defineAdopt({
    scope: "project",
    find: async ({ path, client }) =>
      (await list("listClusterAgents", { project: path }, client)).map((agent) => ({ project: path, agentId: agent["id"] })),
    name: (inputs) => `agent ${text(inputs["name"])}`,
  }),
};

/** This file's declarations, as the generated registry (provider/resources/index.ts) lists them. */
export const registered = { clusterAgent };
