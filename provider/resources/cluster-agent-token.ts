import { z } from "zod";
import { defineResource } from "../engine/declaration";
import { AGENT_TOKEN_DESCRIPTION_MAX, AGENT_TOKEN_NAME_MAX, AGENT_TOKENS_MAX_ACTIVE } from "../../api";
import { nonBlank, normalizers, projectRef, serverId, show } from "../fields";
import { defineAdopt, type AdoptEntries } from "../adopt-entry/entry";
import { agentChildren, text } from "../adopt-entry/find";
import { routes } from "../../api/routes";
import { rotating } from "./rotation";

/** A token of a cluster agent. Its secret value is returned once, at creation. */
export const clusterAgentToken = defineResource({
  name: "ClusterAgentToken",
  summary: "A token a cluster agent authenticates with; deleting it revokes it.",
  inputs: z.object({
    /** The agent's project: id or full path. */
    project: projectRef,
    /** The agent's id (`ClusterAgent.agentId`). */
    agentId: serverId,
    /** The token's name. */
    name: nonBlank("token's name", AGENT_TOKEN_NAME_MAX),
    /** What the token is for; good practice, checked by the policy pack. */
    description: z.string().max(AGENT_TOKEN_DESCRIPTION_MAX).optional(),
  }),
  outputs: z.object({
    /** The token's id. */
    tokenId: serverId,
    /** The secret value; the forge returns it only at creation, so it is kept (encrypted) in state. */
    token: z.string(),
    /** `active` (a revoked token is gone). */
    status: z.string(),
    /** When it was created. */
    createdAt: z.string(),
  }),
  recordId: "tokenId",
  idParts: ["project", "agentId", "tokenId"],
  // Names need not be unique, and the value is only in the create's answer: a token that may be
  // the one a lost answer made is reported, never revoked (nothing proves whose it is).
  identity: {
    none: "token names need not be unique on an agent",
    search: {
      list: routes.clusterAgentTokens.list,
      where: (record, state) => record["name"] === state["name"],
      madeBy: "created_by_user_id",
    },
  },
  limits: [
    {
      policy: "cluster-agent-token-limit",
      per: ["project", "agentId"],
      max: AGENT_TOKENS_MAX_ACTIVE,
      what: { one: "active token", many: "active tokens" },
      scope: "a cluster agent",
      parent: (state) => `agent ${show(state["agentId"])} of project ${show(state["project"])}`,
      advice: `Remove tokens until the agent has at most ${AGENT_TOKENS_MAX_ACTIVE}.`,
    },
  ],
  create: { route: routes.clusterAgentTokens.create, answerOnly: ["token"] },
  read: routes.clusterAgentTokens.get,
  delete: routes.clusterAgentTokens.delete,
  replaceOn: "all",
  secretOutputs: ["token"],
  normalize: { project: normalizers.ref },
  notes: [
    "An agent can have at most two active tokens. A replacement creates the new token before revoking the old one, so rotating one of two tokens needs the `deleteBeforeReplace` resource option.",
    "An imported token has no secret value in state: the forge never shows it again.",
  ],
});

/**
 * Two tokens of one agent, rotated with an overlap: the forge's limit of two active tokens is
 * room for the old one to stay valid while the agent's cluster moves to the new one.
 */
export const rotatingClusterAgentToken = rotating(clusterAgentToken, {
  name: "RotatingClusterAgentToken",
  summary:
    "Two tokens of a cluster agent, rotated on a schedule with an overlap: `current` and `previous` are both valid until the next rotation.",
  noun: "token",
  secrets: ["token"],
  notes: [
    "A rotation (`rotateAfter` past on the forge's clock, a change of `keepers`, `name` or `description`) revokes `previous`, makes a new token and keeps the old `current` as `previous`: the agent never has more than its two tokens. The rotation guide (docs/guides/rotation.md) says how, and what stops it.",
    "It revokes only tokens it made. A token of the agent that it does not hold (a person's, another pipeline's) stops the rotation with an error naming its import id, before anything is revoked.",
    "`currentToken` and `previousToken` are secret outputs, kept encrypted in state. It cannot be imported: a token's value is shown only at its creation.",
  ],
});

/** What forge-adopt finds of this file's resources (provider/adopt): where their objects are, what to call them. */
export const adopt: AdoptEntries = {
  clusterAgentToken: defineAdopt({
    scope: "project",
    find: ({ path, client }) => agentChildren(path, client, "listClusterAgentTokens", "tokenId"),
    name: (inputs) => `agent token ${text(inputs["name"])}`,
    references: { agentId: "clusterAgent" },
  }),
  rotatingClusterAgentToken: {
    exempt: "its tokens' values are shown only at their creation: forge-adopt declares the agent's tokens as ClusterAgentToken",
  },
};

/** This file's declarations, as the generated registry (provider/resources/index.ts) lists them. */
export const registered = { clusterAgentToken, rotatingClusterAgentToken };
